import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { type App, errorBody, notFound, requireActor } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GitRepositories } from '../git/bot-repository';
import { findDeployment, latestDeployments, listDeployments } from '../rebuild/deployment.repository';
import type { PreviewStore } from '../rebuild/previews';
import { previewUrl } from '../preview/preview.routes';
import { requestRebuild } from '../rebuild/rebuild.service';
import * as repo from './project.repository';
import {
  changelogBody,
  changelogEntry,
  commitBody,
  createBody,
  deploymentBody,
  deploymentSummary,
  filesBody,
  projectBody,
  previewBody,
  projectId,
  rebuildBody,
} from './project.schemas';
import * as projects from './project.service';
import { statusMoves } from './version';

export interface ProjectRouteDeps {
  databases: TenantDatabases;
  registry: TenantRegistry;
  git: GitRepositories;
  queue: QueueClient;
  serviceVersion: string;
  previews: PreviewStore;
  publicProxyUrl: string;
}

const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };
const fileRow = z.object({ file_path: z.string(), change_type: z.string(), updated_at: z.date() });

/** The dev project routes of spec 1, all for a tenant's admins (admin JWT). */
export function projectRoutes(app: App, deps: ProjectRouteDeps) {
  const ctx = (request: FastifyRequest): projects.ProjectContext => ({
    db: deps.databases.aplt(request.tenant),
    git: deps.git.for(request.tenant.id),
    tenant: request.tenant,
  });
  const who = (request: FastifyRequest) => request.actor?.actorId ?? null;
  const admin = {
    config: {
      feature: null,
      featureReason:
        'dev projects are the platform team’s change workflow for a tenant (portal tickets become branches), not one of the 31 licensed features of spec 2',
    },
    preHandler: requireActor('user'),
  };

  app.post(
    '/admin/dev-projects',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        body: createBody,
        response: { 201: z.object({ dev_project: projectBody }), ...errors },
      },
    },
    async (request, reply) => {
      const project = await projects.createProject(ctx(request), {
        ...request.body,
        created_by: who(request),
      });
      return reply.status(201).send({ dev_project: project });
    },
  );

  app.get(
    '/admin/dev-projects',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({
          id: projectId.optional(),
          code: z.string().min(1).max(100).optional(),
          status: z.enum(repo.projectStatuses).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: {
          200: z.union([
            z.object({ dev_project: projectBody }),
            z.object({
              dev_projects: z.array(projectBody),
              count: z.number(),
              limit: z.number(),
              offset: z.number(),
            }),
          ]),
          ...errors,
        },
      },
    },
    async (request) => {
      const { id, code, status, limit, offset } = request.query;
      if (id !== undefined || code !== undefined)
        return { dev_project: await projects.getProject(ctx(request), { id, code }) };
      const { rows, count } = await repo.listProjects(ctx(request).db, { status, limit, offset });
      return { dev_projects: rows, count, limit, offset };
    },
  );

  app.post(
    '/admin/dev-projects/files',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        body: filesBody,
        response: { 200: z.object({ project_id: z.number(), files: z.array(fileRow) }), ...errors },
      },
    },
    async (request) => ({
      project_id: request.body.project_id,
      files: await projects.recordFiles(
        ctx(request),
        request.body.project_id,
        request.body.files,
        who(request),
      ),
    }),
  );

  app.post(
    '/admin/dev-projects/changelog',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        body: changelogBody,
        response: { 201: z.object({ entry: changelogEntry }), ...errors },
      },
    },
    async (request, reply) => {
      const entry = await projects.addChangelogEntry(ctx(request), {
        project_id: request.body.project_id,
        action: request.body.action,
        description: request.body.description ?? null,
        changed_by: request.body.changed_by ?? who(request),
      });
      return reply.status(201).send({ entry });
    },
  );

  app.get(
    '/admin/dev-projects/diff',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({ project_id: projectId }),
        response: {
          200: z.object({
            project_id: z.number(),
            branch: z.string(),
            base: z.string(),
            head: z.string(),
            files: z.array(
              z.object({
                path: z.string(),
                status: z.string(),
                additions: z.number().nullable(),
                deletions: z.number().nullable(),
              }),
            ),
            patch: z.string(),
          }),
          ...errors,
        },
      },
    },
    async (request) => projects.diff(ctx(request), request.query.project_id),
  );

  app.get(
    '/admin/dev-projects/commits',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({
          project_id: projectId,
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: {
          200: z.object({
            project_id: z.number(),
            branch: z.string(),
            commits: z.array(
              z.object({ sha: z.string(), author: z.string(), date: z.string(), subject: z.string() }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => projects.commits(ctx(request), request.query.project_id, request.query.limit),
  );

  app.post(
    '/admin/dev-projects/commit',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        body: commitBody,
        response: {
          201: z.object({
            sha: z.string(),
            branch: z.string(),
            version: z.string(),
            status: z.enum(repo.projectStatuses),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const result = await projects.commit(ctx(request), { ...request.body, changed_by: who(request) });
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/admin/dev-projects/browse',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({
          project_id: projectId,
          path: z
            .string()
            .max(500)
            .default('')
            .refine((p) => !p.split('/').includes('..'), 'no ".." segments'),
        }),
        response: {
          200: z.object({
            project_id: z.number(),
            branch: z.string(),
            path: z.string(),
            type: z.enum(['tree', 'blob']),
            entries: z
              .array(
                z.object({
                  name: z.string(),
                  path: z.string(),
                  type: z.enum(['blob', 'tree', 'commit']),
                  size: z.number().nullable(),
                }),
              )
              .optional(),
            size: z.number().optional(),
            content: z.string().optional(),
            encoding: z.enum(['utf8', 'base64']).optional(),
          }),
          ...errors,
        },
      },
    },
    async (request) =>
      projects.browse(ctx(request), request.query.project_id, request.query.path.replace(/^\/+|\/+$/g, '')),
  );

  app.post(
    '/admin/dev-projects/rebuild',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        body: rebuildBody,
        response: {
          202: z.object({
            deployment: deploymentBody,
            job_id: z.string(),
            status: z.literal('testing'),
            preview_url: z.string(),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const result = await requestRebuild(
        { ...ctx(request), registry: deps.registry, queue: deps.queue },
        { ...request.body, started_by: who(request) },
      );
      const project = await projects.getProject(ctx(request), { id: request.body.project_id });
      return reply.status(202).send({
        ...result,
        preview_url: previewUrl(request.tenant, project.project_code, deps.publicProxyUrl),
      });
    },
  );

  app.get(
    '/admin/dev-projects/deployments',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({
          project_id: projectId,
          limit: z.coerce.number().int().min(1).max(200).default(50),
          offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        }),
        response: {
          200: z.object({
            project_id: z.number(),
            deployments: z.array(deploymentSummary),
            count: z.number(),
            limit: z.number(),
            offset: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const c = ctx(request);
      const { project_id, limit, offset } = request.query;
      const project = await projects.getProject(c, { id: project_id });
      const { rows, count } = await listDeployments(c.db, project.id, { limit, offset });
      return { project_id: project.id, deployments: rows, count, limit, offset };
    },
  );

  app.get(
    '/admin/dev-projects/deployments/:id',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: z.object({ deployment: deploymentBody }), ...errors },
      },
    },
    async (request) => {
      // Poll this while `status` is `started`: `log` grows as the build writes.
      const deployment = await findDeployment(ctx(request).db, request.params.id);
      if (!deployment || deployment.dev_project_id === null)
        throw notFound('Deployment not found', { id: request.params.id });
      return { deployment };
    },
  );

  app.get(
    '/admin/dev-projects/status',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({ project_id: projectId }),
        response: {
          200: z.object({
            dev_project: projectBody,
            allowed_moves: z.array(z.enum(repo.projectStatuses)),
            git: z.object({
              branch: z.string(),
              head: z.string(),
              ahead: z.number(),
              behind: z.number(),
              last_commit: z.object({
                sha: z.string(),
                author: z.string(),
                date: z.string(),
                subject: z.string(),
              }),
            }),
            files: z.array(fileRow),
            changelog: z.array(changelogEntry),
            deployments: z.array(deploymentBody),
            last_deployment: deploymentBody.nullable(),
            preview: previewBody,
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const c = ctx(request);
      const project = await projects.getProject(c, { id: request.query.project_id });
      const [git, files, changelog, deployments, live] = await Promise.all([
        c.git.status(project.branch_name).catch((err: unknown) => {
          throw projects.missingBranchAsConflict(err);
        }),
        repo.listFiles(c.db, project.id),
        repo.listChangelog(c.db, project.id),
        latestDeployments(c.db, project.id),
        deps.previews.live(request.tenant.id, project.project_code),
      ]);
      return {
        dev_project: project,
        allowed_moves: statusMoves[project.status],
        git: { branch: project.branch_name, ...git },
        files,
        changelog,
        deployments,
        last_deployment: deployments[0] ?? null,
        preview: {
          url: previewUrl(request.tenant, project.project_code, deps.publicProxyUrl),
          deployment_id: live,
        },
      };
    },
  );

  app.get(
    '/admin/dev-projects/version',
    {
      ...admin,
      schema: {
        tags: ['dev-projects'],
        querystring: z.object({ project_id: projectId.optional() }),
        response: {
          200: z.object({
            service: z.string(),
            service_version: z.string(),
            git: z.string(),
            version_format: z.string(),
            dev_project: z
              .object({
                id: z.number(),
                project_code: z.string(),
                version: z.string(),
                status: z.enum(repo.projectStatuses),
              })
              .optional(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const project =
        request.query.project_id !== undefined
          ? await projects.getProject(ctx(request), { id: request.query.project_id })
          : undefined;
      return {
        service: 'devprojects',
        service_version: deps.serviceVersion,
        git: await deps.git.version(),
        version_format: 'major.minor.patch.build',
        ...(project
          ? {
              dev_project: {
                id: project.id,
                project_code: project.project_code,
                version: project.version,
                status: project.status,
              },
            }
          : {}),
      };
    },
  );
}
