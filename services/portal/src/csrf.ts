import { csrfGuard, forbidden, HttpError } from '@aplt/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The cookie holding the portal's CSRF secret (HttpOnly, SameSite=Strict). */
export const CSRF_COOKIE = 'portal_csrf';

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
 * CSRF defence of the cookie-authenticated JSON API, in three layers before any body is read:
 * a state change must be sent as application/json (a cross-site form cannot send it without a
 * CORS preflight this service never grants); a browser's Origin, when present, must be this host
 * (a non-ASCII or malformed Origin is simply not this host: 403); and it must carry the token of
 * `@fastify/csrf-protection` (@aplt/http's csrfGuard), which the page embeds and API clients get
 * from GET /api/csrf.
 */
export async function registerCsrf(app: FastifyInstance): Promise<void> {
  const tokenCheck = await csrfGuard(app, { cookie: CSRF_COOKIE });
  app.addHook('onRequest', (request, reply, done) => {
    if (!unsafe.has(request.method) || !isApiRoute(request)) return done();
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      return done(new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json'));
    const origin = request.headers.origin;
    if (origin !== undefined && (origin === 'null' || originHost(origin) !== request.host))
      return done(forbidden('Cross-origin request refused', { origin }));
    tokenCheck(request, reply, done);
  });
}
