import type { TenantDatabases, TenantRecord, TenantRegistry } from '@aplt/db';
import { type App, errorBody, unprocessable } from '@aplt/http';
import { z } from 'zod';
import type { GitRepositories } from '../git/bot-repository';
import { priorities, projectTypes } from '../projects/project.repository';
import { projectBody } from '../projects/project.schemas';
import { createFromTicket } from '../projects/project.service';

/** Base address of a tenant's admin panel: its registered URL, else its host on the public proxy. */
export function tenantBaseUrl(tenant: TenantRecord, publicProxyUrl: string): string {
  if (tenant.adminBaseUrl) return tenant.adminBaseUrl.replace(/\/+$/, '');
  const proxy = new URL(publicProxyUrl);
  return `${proxy.protocol}//${tenant.hosts[0] ?? tenant.id}${proxy.port ? `:${proxy.port}` : ''}`;
}

/**
 * Service-to-service API for the portal: create the project of a support ticket in the tenant
 * the ticket belongs to. It takes its tenant from the body, so it serves no host
 * (`tenant: false`) and no identity assertion opens it: the trust plugin of @aplt/http demands
 * `Authorization: Bearer <SERVICE_TOKEN>` (`serviceToken: true`, compared in constant time).
 * The proxy never routes /internal/*.
 */
export function internalRoutes(
  app: App,
  deps: {
    databases: TenantDatabases;
    registry: TenantRegistry;
    git: GitRepositories;
    publicProxyUrl: string;
  },
) {
  app.post(
    '/internal/dev-projects/from-ticket',
    {
      config: { tenant: false, serviceToken: true },
      schema: {
        tags: ['internal'],
        body: z.object({
          tenant: z.string().min(1).max(50),
          ticket_id: z.number().int().positive(),
          ticket_number: z.string().min(1).max(32),
          name: z.string().trim().min(1).max(255),
          description: z.string().max(20_000).nullish(),
          project_type: z.enum(projectTypes),
          priority: z.enum(priorities),
          created_by: z.string().max(255).nullish(),
        }),
        response: {
          200: z.object({ dev_project: projectBody, created: z.boolean(), base_url: z.string() }),
          201: z.object({ dev_project: projectBody, created: z.boolean(), base_url: z.string() }),
          400: errorBody,
          401: errorBody,
          422: errorBody,
        },
      },
    },
    async (request, reply) => {
      const { tenant: tenantId, ...input } = request.body;
      const tenant = await deps.registry.get(tenantId);
      if (!tenant) throw unprocessable(`Unknown tenant ${tenantId}`, { tenant: tenantId });
      const { project, created } = await createFromTicket(
        { db: deps.databases.aplt(tenant), git: deps.git.for(tenant.id), tenant },
        { ...input, created_by: input.created_by ?? 'portal' },
      );
      return reply
        .status(created ? 201 : 200)
        .send({ dev_project: project, created, base_url: tenantBaseUrl(tenant, deps.publicProxyUrl) });
    },
  );
}
