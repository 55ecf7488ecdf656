import { forbidden, HttpError } from '@aplt/http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF defence of the cookie-authenticated JSON API, on top of the SameSite=Lax cookie: a state
 * change must be sent as application/json (which a cross-site form cannot send without a CORS
 * preflight this service never grants), and a browser's Origin, when present, must be this host.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (!unsafe.has(request.method) || !request.url.startsWith('/api/')) return;
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json')
        throw new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json');
      const origin = request.headers.origin;
      if (origin && origin !== 'null') {
        let originHost: string | undefined;
        try {
          originHost = new URL(origin).host;
        } catch {
          originHost = undefined;
        }
        if (originHost !== request.host) throw forbidden('Cross-origin request refused', { origin });
      } else if (origin === 'null') throw forbidden('Cross-origin request refused', { origin });
    });
  },
  { name: 'portal-csrf' },
);
