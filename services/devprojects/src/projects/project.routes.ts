import type { App } from '@aplt/http';
import { z } from 'zod';
import { latestDeployments } from '../rebuild/deployment.repository';
import { previewUrl } from '../preview/preview.routes';
import { projectBranchRoutes } from './project-branch.routes';
import { projectDeploymentRoutes } from './project-deployment.routes';
import { type ProjectRouteDeps, errors, fileRow, projectRouteHelpers } from './project-route-helpers';
import * as repo from './project.repository';
import {
  changelogEntry,
  createBody,
  deploymentBody,
  previewBody,
  projectBody,
  projectId,
} from './project.schemas';
import * as projects from './project.service';
import { statusMoves } from './version';

export type { ProjectRouteDeps };

/** The dev project routes of spec 1, all for a tenant's admins (admin JWT). */
export function projectRoutes(app: App, deps: ProjectRouteDeps) {
  const { ctx, who, admin } = projectRouteHelpers(deps);

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

  projectBranchRoutes(app, deps);
  projectDeploymentRoutes(app, deps);
}
