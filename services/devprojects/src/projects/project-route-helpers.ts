import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { errorBody, requireActor } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GitRepositories } from '../git/bot-repository';
import type { PreviewStore } from '../rebuild/previews';
import type * as projects from './project.service';

export interface ProjectRouteDeps {
  databases: TenantDatabases;
  registry: TenantRegistry;
  git: GitRepositories;
  queue: QueueClient;
  serviceVersion: string;
  previews: PreviewStore;
  publicProxyUrl: string;
}

export const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };
export const fileRow = z.object({ file_path: z.string(), change_type: z.string(), updated_at: z.date() });

/** What every dev project route shares: its tenant's context, who asks, and the admin guard. */
export function projectRouteHelpers(deps: ProjectRouteDeps) {
  return {
    ctx: (request: FastifyRequest): projects.ProjectContext => ({
      db: deps.databases.aplt(request.tenant),
      git: deps.git.for(request.tenant.id),
      tenant: request.tenant,
    }),
    who: (request: FastifyRequest) => request.actor?.actorId ?? null,
    admin: {
      config: {
        feature: null,
        featureReason:
          'dev projects are the platform team’s change workflow for a tenant (portal tickets become branches), not one of the 31 licensed features of spec 2',
      },
      preHandler: requireActor('user'),
    },
  };
}
