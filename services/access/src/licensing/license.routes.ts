import { forbidden, notFound, unauthorized } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccessApp } from '../app';
import { ensureCsrfToken, requireSession, requireSessionOrService, sessionIdentity } from '../auth/guards';
import type { Identity } from '../auth/session.repository';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { licensesPage } from './licenses-page';
import * as service from './license.service';

const tenantParam = z.object({ tenant_id: z.string().min(1).max(50) });
const reason = z.string().max(1000).optional();

/** A user of one tenant (not a license admin) reads that tenant's licenses only. */
const onlyTenantOf = (identity: Identity | null) =>
  identity?.tenantId && !identity.roles.includes(service.LICENSE_ADMIN_ROLE) ? identity.tenantId : null;

function assertMayRead(request: FastifyRequest, tenantId: string): void {
  const only = onlyTenantOf(request.identity);
  if (only !== null && only !== tenantId)
    throw forbidden('This account reads only its own tenant’s licenses', { tenant_id: tenantId });
}

/**
 * License API (spec 2) and the admin UI at /admin/licenses. Reads need the service token (the
 * backends' license clients) or a session (the UI): tenant ids, names and entitlements are not
 * for whoever reaches the access host.
 */
export async function licenseRoutes(
  app: AccessApp,
  deps: service.LicenseDeps & { identities: IdentityCache; serviceToken: string },
) {
  const session = requireSession(deps.identities);
  const reader = requireSessionOrService(deps.identities, deps.serviceToken);

  app.get('/api/license/tenants', { preHandler: reader }, async (request) => {
    const tenants = await service.listTenants(deps);
    const only = onlyTenantOf(request.identity);
    return { tenants: only === null ? tenants : tenants.filter((t) => t.tenant_id === only) };
  });

  app.get(
    '/api/license/:tenant_id',
    {
      preHandler: reader,
      schema: {
        params: tenantParam,
        response: {
          200: z.object({
            tenant_id: z.string(),
            features: z.array(z.string()),
            all_features: z.record(z.string(), z.boolean()),
            groups: z.record(
              z.string(),
              z.object({ enabled: z.array(z.string()), disabled: z.array(z.string()) }),
            ),
            feature_count: z.number().int(),
            total_count: z.number().int(),
          }),
          304: z.null(),
        },
      },
    },
    async (request, reply) => {
      assertMayRead(request, request.params.tenant_id);
      const license = await service.getLicense(deps, request.params.tenant_id);
      void reply
        .header('etag', license.etag)
        .header('x-license-revision', license.revision)
        .header('cache-control', 'no-cache');
      // Polling a tenant that did not change costs a 304 without a body.
      if (request.headers['if-none-match'] === license.etag) return reply.status(304).send(null);
      return license.body;
    },
  );

  app.get(
    '/api/license/:tenant_id/trials',
    { preHandler: reader, schema: { params: tenantParam } },
    async (request) => {
      assertMayRead(request, request.params.tenant_id);
      const license = await service.getLicense(deps, request.params.tenant_id);
      return { tenant_id: request.params.tenant_id, trials: license.trials };
    },
  );

  app.put(
    '/api/license/:tenant_id',
    {
      preHandler: session,
      schema: {
        params: tenantParam,
        body: z.object({
          feature: z.string().min(1).max(100),
          enabled: z.boolean(),
          reason,
          // Trials: the entitlement reads as disabled after this instant; null removes the expiry.
          expires_at: z.string().datetime({ offset: true }).nullish(),
        }),
      },
    },
    async (request) => service.setFeature(deps, request.params.tenant_id, request.body, request.identity!),
  );

  app.put(
    '/api/license/:tenant_id/bulk',
    {
      preHandler: session,
      schema: {
        params: tenantParam,
        body: z.object({
          features: z.array(z.string().min(1).max(100)).min(1).max(100),
          enabled: z.boolean(),
          reason,
        }),
      },
    },
    async (request) => service.setBulk(deps, request.params.tenant_id, request.body, request.identity!),
  );

  app.post(
    '/api/license/:tenant_id/clone',
    {
      preHandler: session,
      schema: {
        params: tenantParam,
        body: z.object({ source_tenant_id: z.string().min(1).max(50), reason }),
      },
    },
    async (request) => service.cloneLicenses(deps, request.params.tenant_id, request.body, request.identity!),
  );

  app.get(
    '/api/license/:tenant_id/audit',
    {
      preHandler: session,
      schema: {
        params: tenantParam,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) }),
      },
    },
    async (request) => ({
      tenant_id: request.params.tenant_id,
      entries: await service.auditLog(deps, request.params.tenant_id, request.identity!, request.query.limit),
    }),
  );

  // The UI: 401 without a session (spec 2); a tenant's own admin sees only their tenant, read-only.
  app.get('/admin/licenses', async (request, reply) => {
    const identity = await sessionIdentity(deps.identities, request);
    if (!identity) {
      if ((request.headers.accept ?? '').includes('text/html'))
        return reply
          .status(401)
          .type('text/html; charset=utf-8')
          .send(
            '<!doctype html><title>Sign in required</title><p>Sign in required. <a href="/login">Sign in</a></p>',
          );
      throw unauthorized('Sign in first', { login_url: '/login' });
    }
    const canWrite = identity.roles.includes(service.LICENSE_ADMIN_ROLE);
    if (!canWrite && !identity.tenantId) throw notFound('No license view for this account');
    const csrf = ensureCsrfToken(request, reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        licensesPage({
          csrf,
          email: identity.email,
          canWrite,
          onlyTenant: canWrite ? null : identity.tenantId,
        }),
      );
  });
}
