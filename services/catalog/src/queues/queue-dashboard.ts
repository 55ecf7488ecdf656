import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { type App, forbidden, HttpError, requireActor, SESSION_COOKIE } from '@aplt/http';
import type { QueueClient, QueueName } from '@aplt/queue';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { masterTenant } from '../deps';
import { otherHostPage, type Page, signInPage, signOutPage } from './dashboard-pages';

const BASE = '/admin/queues';
const SIGN_OUT = `${BASE}/sign-out`;
const dashboardQueues: QueueName[] = ['connectors', 'commerce-sync', 'tenant-update'];

/**
 * Licensing of every dashboard route. The board is an operator tool, not a module a tenant
 * licenses: it is served to the master's admins only and holds the jobs of every tenant, so
 * switching one of the master's features off must not take away the board that shows them.
 */
const dashboardLicensing = {
  feature: null,
  featureReason: 'operator tool for the queues of every tenant, served to the master tenant’s admins only',
} as const;

/**
 * Bull Board for operators at /admin/queues. Admins of the master tenant only: the queues hold
 * the jobs of every tenant, and the board can pause, clean and retry them. Credentials are those
 * of every admin route (bearer token or Medusa's `connect.sid` session cookie, see requireActor),
 * so an operator signed in on the master's admin host opens it in a plain browser; a browser
 * without a session gets a sign-in page (401) instead of a JSON body. Bull Board installs its own
 * error handler in its scope, so the guard answers itself instead of throwing.
 */
export async function queueDashboard(app: App, queues: QueueClient) {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BASE);
  createBullBoard({
    queues: dashboardQueues.map((name) => new BullMQAdapter(queues.queue(name), { readOnlyMode: false })),
    serverAdapter,
    options: {
      uiConfig: { boardTitle: 'Catalog queues', miscLinks: [{ text: 'Sign out', url: SIGN_OUT }] },
    },
  });
  const actor = requireActor('user');

  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      // Checked before credentials: signing in on another tenant's host would not help.
      if (request.tenant.kind !== 'master') {
        if (wantsPage(request)) return sendPage(reply, 403, otherHostPage(await masterUrl(app, request)));
        throw forbidden('The queue dashboard is served on the master tenant’s admin host only');
      }
      await actor(request);
      if (!isSameOrigin(request)) {
        throw forbidden('Cross-origin request refused: the queue dashboard accepts its own pages only');
      }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (err.statusCode === 401 && wantsPage(request)) {
        return sendPage(reply, 401, signInPage({ expired: request.cookies?.[SESSION_COOKIE] !== undefined }));
      }
      return reply.code(err.statusCode).send(err.body());
    }
  };

  await app.register(async (scope) => {
    scope.addHook('preHandler', guard);
    adoptBoard(scope);
    await scope.register(serverAdapter.registerPlugin(), { prefix: BASE });
  });
  // Outside the guard: signing out must work with an expired session too.
  app.get(SIGN_OUT, { schema: { hide: true }, config: dashboardLicensing }, async (_request, reply) =>
    sendPage(reply, 200, signOutPage(BASE)),
  );
}

/**
 * Bull Board (and the @fastify/static it registers) adds its routes and its error handler itself,
 * with no way to pass options, so the scope it is registered in adapts both as they are added:
 * every route gets the dashboard's licensing declaration (the app refuses to start with an
 * undeclared /admin route), and the board's error handler passes the fleet's own errors (401 of
 * the trust boundary, 400 of the input rule, 404 of an unknown host) on to the fleet's handler,
 * so they keep the one error body; the board's own failures stay with it.
 */
function adoptBoard(scope: App) {
  const route = scope.route;
  scope.route = function declaredRoute(this: App, options: Parameters<App['route']>[0]) {
    return route.call(this, { ...options, config: { ...options.config, ...dashboardLicensing } });
  } as App['route'];
  const setErrorHandler = scope.setErrorHandler;
  scope.setErrorHandler = function fleetErrorsFirst(
    this: App,
    handler: Parameters<App['setErrorHandler']>[0],
  ) {
    return setErrorHandler.call(this, function (this: App, error, request, reply) {
      if (error instanceof HttpError) throw error;
      return handler.call(this, error, request, reply);
    });
  } as App['setErrorHandler'];
}

function sendPage(reply: FastifyReply, status: number, page: Page) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', page.csp)
    .header('x-content-type-options', 'nosniff')
    .send(page.html);
}

/**
 * A browser navigation (an address typed or a link followed), as opposed to the board's own
 * API calls or a script: those keep the JSON error body. Same rule as the access service's.
 */
export function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined && mode !== 'navigate') return false;
  if (String(request.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest') return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * The session cookie is SameSite=Strict, which keeps other sites out but not pages of other hosts
 * of the same site (another tenant, the modal host). A state-changing call must come from this
 * origin: browsers say so in Sec-Fetch-Site / Origin; clients without them carry no cookie of ours.
 */
function isSameOrigin(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}

/** The dashboard's address on the master's admin host, with this request's scheme and port. */
async function masterUrl(app: App, request: FastifyRequest): Promise<string | undefined> {
  const master = await masterTenant(app.catalogDeps.registry);
  if (master?.adminBaseUrl) return `${master.adminBaseUrl.replace(/\/+$/, '')}${BASE}`;
  const host = master?.hosts[0];
  if (!host) return undefined;
  const port = request.host.slice(request.hostname.length);
  return `${request.protocol}://${host}${port}${BASE}`;
}
