import type { App } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { appShell } from './app-shell';
import { adminFeatures } from './features.service';

/**
 * Who forward auth let through, from the verified identity assertion (the X-Auth-* headers say
 * the same, but only the assertion is signed): the user's e-mail (null for a whitelisted
 * machine), the roles as one comma-separated string (null when none) and why it passed.
 */
function identity(request: FastifyRequest) {
  const access = request.access;
  return {
    user: access && access.sub !== 'whitelist' ? access.sub : null,
    roles: access?.roles.length ? access.roles.join(',') : null,
    via: access?.reason ?? null,
  };
}

export async function featuresRoutes(app: App) {
  app.get(
    '/admin/features',
    {
      config: {
        feature: null,
        featureReason:
          'the admin panel asks which features are licensed, whatever they are, to draw its sidebar',
      },
      schema: {
        response: {
          200: z.object({
            tenant_id: z.string(),
            features: z.array(z.string()),
            sidebar_items: z.array(z.string()),
            status: z.object({
              source: z.enum(['api', 'snapshot', 'env', 'all-features']),
              all_features_mode: z.boolean(),
              revision: z.string().nullable(),
              fetched_at: z.string().nullable(),
              last_error: z.string().nullable(),
            }),
          }),
        },
      },
    },
    async (request, reply) => {
      const body = adminFeatures(app.licenses, request.tenant.id);
      void reply
        .header('x-license-revision', body.status.revision ?? 'none')
        .header('cache-control', 'no-store');
      return body;
    },
  );

  app.get(
    '/api/store/features',
    {
      config: { public: true },
      schema: { response: { 200: z.object({ tenant_id: z.string(), features: z.array(z.string()) }) } },
    },
    async (request) => ({
      tenant_id: request.tenant.id,
      features: app.licenses.enabledFeatures(request.tenant.id),
    }),
  );

  app.get('/api/identity', async (request) => identity(request));

  app.get('/app', async (request, reply) => {
    const { sidebar_items } = adminFeatures(app.licenses, request.tenant.id);
    return reply.type('text/html; charset=utf-8').send(
      appShell({
        tenantName: request.tenant.name,
        sidebarItems: sidebar_items,
        user: identity(request).user,
      }),
    );
  });
}
