import type { App } from '@aplt/http';
import { z } from 'zod';
import * as repo from './project.repository';
import { type ProjectRouteDeps, errors, fileRow, projectRouteHelpers } from './project-route-helpers';
import { changelogBody, changelogEntry, commitBody, filesBody, projectId } from './project.schemas';
import * as projects from './project.service';

/** A project's branch: its files and changelog, the diff, commits, a commit, browsing the tree. */
export function projectBranchRoutes(app: App, deps: ProjectRouteDeps) {
  const { ctx, who, admin } = projectRouteHelpers(deps);

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
}
