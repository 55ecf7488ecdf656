import { type App, notFound } from '@aplt/http';
import { z } from 'zod';
import { findDeployment, listDeployments } from '../rebuild/deployment.repository';
import { requestRebuild } from '../rebuild/rebuild.service';
import { previewUrl } from '../preview/preview.routes';
import { type ProjectRouteDeps, errors, projectRouteHelpers } from './project-route-helpers';
import { deploymentBody, deploymentSummary, projectId, rebuildBody } from './project.schemas';
import * as projects from './project.service';

/** A project's rebuilds: start one (its preview), list them, follow one while it builds. */
export function projectDeploymentRoutes(app: App, deps: ProjectRouteDeps) {
  const { ctx, who, admin } = projectRouteHelpers(deps);

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
}
