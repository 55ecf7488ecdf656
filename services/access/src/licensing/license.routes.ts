import { notFound, unauthorized } from '@aplt/http';
import { z } from 'zod';
import type { AccessApp } from '../app';
import { ensureCsrfToken, requireSession } from '../auth/guards';
import { SESSION_COOKIE } from '../auth/tokens';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { licensesPage } from './licenses-page';
import * as service from './license.service';

const tenantParam = z.object({ tenant_id: z.string().min(1).max(50) });
const reason = z.string().max(1000).optional();

/** License API (spec 2) and the admin UI at /admin/licenses. */
export async function licenseRoutes(
  app: AccessApp,
  deps: service.LicenseDeps & { identities: IdentityCache },
) {
  const session = requireSession(deps.identities);

  app.get('/api/license/tenants', async () => ({ tenants: await service.listTenants(deps) }));

  app.get(
    '/api/license/:tenant_id',
    {
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

  app.get('/api/license/:tenant_id/trials', { schema: { params: tenantParam } }, async (request) => {
    const license = await service.getLicense(deps, request.params.tenant_id);
    return { tenant_id: request.params.tenant_id, trials: license.trials };
  });

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
    const token = request.cookies[SESSION_COOKIE];
    const identity = token ? await deps.identities.session(token) : null;
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
