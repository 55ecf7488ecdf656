import { type App, HttpError } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AdminFeatures, FeatureWatch } from './feature-watch';
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

const featuresBody = z.object({
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
});

const sidebarReason =
  'the admin panel asks which features are licensed, whatever they are, to draw its sidebar';

/** A comment line every so often keeps proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

export async function featuresRoutes(app: App, opts: { watch: FeatureWatch }) {
  app.get(
    '/admin/features',
    {
      config: { feature: null, featureReason: sidebarReason },
      schema: { response: { 200: featuresBody } },
    },
    async (request, reply) => {
      const body = adminFeatures(app.licenses, request.tenant.id);
      void reply
        .header('x-license-revision', body.status.revision ?? 'none')
        .header('cache-control', 'no-store');
      return body;
    },
  );

  // Open streams, ended before the server closes (a stream never ends by itself).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
    opts.watch.stop();
  });

  app.get(
    '/admin/features/events',
    {
      config: { feature: null, featureReason: `${sidebarReason}, and hears when that changes` },
      schema: {
        description:
          'Server-sent events: one `features` event with the body of GET /admin/features at once, then one on every change of the enabled features. Needs `Accept: text/event-stream`.',
      },
    },
    async (request, reply) => {
      if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) {
        throw new HttpError(
          406,
          'invalid_data',
          'This route streams server-sent events: send Accept: text/event-stream',
        );
      }
      const res = reply.raw;
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const send = (body: AdminFeatures) => {
        res.write(
          `event: features\nid: ${body.status.revision ?? 'none'}\ndata: ${JSON.stringify(body)}\n\n`,
        );
      };
      const { current, unsubscribe } = opts.watch.subscribe(request.tenant.id, send);
      // A client that lost the stream comes back after 3 s (EventSource; the panel does the same).
      res.write('retry: 3000\n\n');
      send(current);
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(end);
        res.end();
      };
      streams.add(end);
      request.raw.on('close', end);
      res.on('close', end);
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
}
