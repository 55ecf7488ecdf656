import { forbidden, HttpError } from '@aplt/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether the route the router matched is part of the cookie-authenticated JSON API. Decided on
 * the route's own pattern (`/api/support/tickets/:id`), never on the raw request URL: the router
 * matches the decoded path, so `/api/%73upport/tickets` reaches the same route and must meet the
 * same rule. A request that matched no route answers 404 and changes nothing.
 */
const isApiRoute = (request: FastifyRequest) => request.routeOptions.url?.startsWith('/api/') === true;

/** The host part of an Origin header, or undefined when it is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * CSRF defence of the cookie-authenticated JSON API, on top of the SameSite=Lax cookie: a state
 * change must be sent as application/json (which a cross-site form cannot send without a CORS
 * preflight this service never grants), and a browser's Origin, when present, must be this host.
 * There is no CSRF token to compare: the content type and the Origin are the proof, and neither
 * is a secret (a non-ASCII or malformed Origin is simply not this host: 403).
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (!unsafe.has(request.method) || !isApiRoute(request)) return;
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json')
        throw new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json');
      const origin = request.headers.origin;
      if (origin === undefined) return;
      if (origin === 'null' || originHost(origin) !== request.host)
        throw forbidden('Cross-origin request refused', { origin });
    });
  },
  { name: 'portal-csrf' },
);
