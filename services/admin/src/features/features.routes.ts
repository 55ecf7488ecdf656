import type { App } from '@aplt/http';
import { z } from 'zod';
import { appShell } from './app-shell';
import { adminFeatures } from './features.service';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || null;

export async function featuresRoutes(app: App) {
  app.get(
    '/admin/features',
    {
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

  // Who forward auth says this is: the proxy sets these from the access service's answer only.
  app.get('/api/identity', async (request) => ({
    user: header(request.headers['x-auth-user']),
    roles: header(request.headers['x-auth-roles']),
    via: header(request.headers['x-auth-via']),
  }));

  app.get('/app', async (request, reply) => {
    const { sidebar_items } = adminFeatures(app.licenses, request.tenant.id);
    return reply.type('text/html; charset=utf-8').send(
      appShell({
        tenantName: request.tenant.name,
        sidebarItems: sidebar_items,
        user: header(request.headers['x-auth-user']),
      }),
    );
  });
}
