import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ASSERTION_HEADER, badRequest, badStringPath } from '@aplt/http';
import type { FastifyBaseLogger } from 'fastify';
import type { RedeemedTicket } from '../auth/login-ticket.service';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../auth/tokens';
import type { Config } from '../config';
import type { ForwardAssertions } from './assertions';
import { clientIpResolver } from './client-ip';
import { cookieValue } from './cookie-value';
import { deniedPage } from './denied-page';
import type { HostEntry, HostTenants } from './host-tenants';
import type { IdentityCache } from './identity-cache';
import type { DecisionMetrics } from './metrics';
import { derivedAccessUrl, forwardedReturnUrl } from './return-url';
import { type Decision, decide, decideNow, negotiate, SHOP_VISITOR } from './validate.service';
import type { Whitelist } from './whitelist';

/** Path on every protected host where a login made on the access host is handed over. */
export const CALLBACK_PATH = '/_access/callback';

export interface ValidateDeps {
  config: Config;
  whitelist: Whitelist;
  identities: IdentityCache;
  metrics: DecisionMetrics;
  /** The registry's tenant of each forwarded host, from memory. */
  hosts: HostTenants;
  /** Signs the identity assertion of an allow; null answers without one (the benchmark's baseline). */
  assertions: ForwardAssertions | null;
  log: FastifyBaseLogger;
  /** Redeems a one-time login ticket for a session on `host` (see login-ticket.service). */
  redeemTicket: (r: {
    ticket: string;
    host: string;
    ip: string;
    userAgent: string | undefined;
  }) => Promise<RedeemedTicket | null>;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body?: string;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const json = (status: number, body: unknown, extra: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...extra },
  body: JSON.stringify(body),
});

/**
 * GET /api/validate, the proxy's question "may this request through?", answered on the raw
 * server: it runs before every request of every backend, so it skips the framework's router,
 * hooks and per-request logger (see docs/decisions.md). Fails closed: an internal error is a 500,
 * which the proxy treats as a denial.
 */
export function validateHandler(deps: ValidateDeps) {
  const ctx: Context = {
    ...deps,
    clientIp: clientIpResolver(deps.config.TRUSTED_PROXIES),
    loginUrl: loginUrlFor(deps.config),
  };
  // A decision found in the caches is answered synchronously, without a promise per request;
  // only a cache miss (database, license fetch) goes through one.
  return (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = one(req.headers['x-request-id']) || nextRequestId();
    let result: Answer | Promise<Answer>;
    try {
      result = answer(ctx, req, requestId);
    } catch (err) {
      fail(ctx, req, res, requestId, err);
      return;
    }
    if (result instanceof Promise)
      result.then(
        (a) => write(req, res, requestId, a),
        (err: unknown) => fail(ctx, req, res, requestId, err),
      );
    else write(req, res, requestId, result);
  };
}

// Request ids for calls that bring none (the proxy sends none): unique per process start and
// cheap, like Fastify's own counter, where a UUID per request cost a tenth of the decision.
const idPrefix = randomBytes(4).toString('hex');
let idCounter = 0;
const nextRequestId = () => `fa-${idPrefix}-${(++idCounter).toString(36)}`;

function fail(ctx: Context, req: IncomingMessage, res: ServerResponse, requestId: string, err: unknown) {
  ctx.log.error({ err, reqId: requestId }, 'forward auth failed');
  write(
    req,
    res,
    requestId,
    json(500, { type: 'unexpected_state', message: 'Access check failed', request_id: requestId }),
  );
}

interface Context extends ValidateDeps {
  clientIp: (peer: string, xff: string | undefined, realIp?: string) => string;
  loginUrl: (proto: 'http' | 'https', host: string, uri: string) => string;
}

interface Forwarded {
  method: string;
  host: string;
  uri: string;
  proto: 'http' | 'https';
  ip: string;
  requestId: string;
  headers: IncomingMessage['headers'];
}

function write(req: IncomingMessage, res: ServerResponse, requestId: string, a: Answer) {
  const body = a.body ?? '';
  a.headers['x-request-id'] = requestId;
  a.headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(a.status, a.headers);
  if (body && req.method !== 'HEAD') {
    // Headers and body leave in one write of their own. res.end(body) would queue an empty
    // write behind them and flush both with writev, which costs a denial a tenth of its rate.
    res.socket?.cork();
    res.write(body);
    res.socket?.uncork();
  }
  res.end();
}

/**
 * The forwarded request, in whichever form the proxy asks (README "Forward authentication"):
 * - Caddy forward_auth and Traefik forwardAuth: X-Forwarded-Method, -Host and -Uri, all three, the
 *   client in X-Forwarded-For. Both proxies overwrite these but pass a client's own X-Real-IP and
 *   X-Original-* on, so in this form those are ignored.
 * - nginx auth_request: X-Original-URI (and X-Original-Method when configured: the subrequest
 *   itself is always a GET), the original Host, the client in X-Real-IP or X-Forwarded-For.
 * - The spec's plain form: Host, X-Real-IP / X-Forwarded-For and Cookie only; without a path the
 *   host's root stands for the request (it only shapes the login's return URL).
 * Forwarded addresses count only from TRUSTED_PROXIES (client-ip.ts).
 */
function forwardedOf(ctx: Context, req: IncomingMessage, requestId: string): Forwarded | Answer {
  const h = req.headers;
  const peer = req.socket.remoteAddress ?? '';
  const xff = one(h['x-forwarded-for']);
  const forwardedMethod = one(h['x-forwarded-method']);
  const forwardedUri = one(h['x-forwarded-uri']);
  let method: string;
  let host: string | undefined;
  let uri: string;
  let ip: string;
  if (forwardedMethod !== undefined || forwardedUri !== undefined) {
    host = one(h['x-forwarded-host']);
    if (!forwardedMethod || !host || !forwardedUri)
      return missing(ctx, requestId, [
        !forwardedMethod && 'X-Forwarded-Method',
        !host && 'X-Forwarded-Host',
        !forwardedUri && 'X-Forwarded-Uri',
      ]);
    method = forwardedMethod;
    uri = forwardedUri;
    ip = ctx.clientIp(peer, xff);
  } else {
    host = h.host;
    if (!host) return missing(ctx, requestId, ['Host']);
    method = one(h['x-original-method']) || 'GET';
    uri = one(h['x-original-uri']) || '/';
    ip = ctx.clientIp(peer, xff, one(h['x-real-ip']));
  }
  return {
    method,
    host,
    uri,
    proto: one(h['x-forwarded-proto']) === 'https' ? 'https' : 'http',
    ip,
    requestId,
    headers: h,
  };
}

function missing(ctx: Context, requestId: string, names: (string | false)[]): Answer {
  ctx.metrics.count('bad_request', 'missing_forwarded_headers');
  const err = badRequest(
    'Forward auth needs X-Forwarded-Method, X-Forwarded-Host and X-Forwarded-Uri (Caddy, Traefik), ' +
      'or Host with X-Original-URI (nginx auth_request) or alone',
    { missing: names.filter(Boolean) },
  );
  return json(err.statusCode, { ...err.body(), request_id: requestId });
}

/** Synchronous when the caches know the client (no promise per request), else a promise. */
function answer(ctx: Context, req: IncomingMessage, requestId: string): Answer | Promise<Answer> {
  const f = forwardedOf(ctx, req, requestId);
  if (!('requestId' in f)) return f;
  const { host, uri } = f;
  const h = req.headers;

  // The hand-over of a login made on the access host never reaches a backend, whitelisted or not.
  if (
    uri.startsWith(CALLBACK_PATH) &&
    (uri.length === CALLBACK_PATH.length || '?/'.includes(uri[CALLBACK_PATH.length]!))
  )
    return callback(ctx, f);

  const cookies = one(h.cookie);
  const sessionToken = cookieValue(cookies, SESSION_COOKIE);
  const deviceToken = cookieValue(cookies, DEVICE_COOKIE);
  // The HTTP parser refuses a raw NUL in a header; only percent-decoding can make one.
  if (cookies !== undefined && cookies.includes('%')) {
    const bad =
      badStringPath(sessionToken, `cookie ${SESSION_COOKIE}`) ??
      badStringPath(deviceToken, `cookie ${DEVICE_COOKIE}`);
    if (bad) return badString(ctx, bad, requestId);
  }
  const entry = ctx.hosts.entryNow(host);
  if (entry === undefined)
    return ctx.hosts
      .entry(host)
      .then((loaded) => decideFor(ctx, f, { ip: f.ip, sessionToken, deviceToken, host: loaded }));
  return decideFor(ctx, f, { ip: f.ip, sessionToken, deviceToken, host: entry });
}

function decideFor(
  ctx: Context,
  f: Forwarded,
  input: { ip: string; sessionToken: string | undefined; deviceToken: string | undefined; host: HostEntry },
): Answer | Promise<Answer> {
  // A tenant's shop host is public at the proxy (ACCESS_SHOP_POLICY, default public): the
  // storefront's gatekeeper decides. Unknown and backend hosts go through the usual rules.
  if (input.host.shop && ctx.config.ACCESS_SHOP_POLICY === 'public')
    return respond(ctx, f, input.host, SHOP_VISITOR);
  const now = decideNow(ctx, input);
  return now
    ? respond(ctx, f, input.host, now)
    : decide(ctx, input).then((d) => respond(ctx, f, input.host, d));
}

function badString(ctx: { metrics: DecisionMetrics }, path: string, requestId: string): Answer {
  ctx.metrics.count('bad_request', 'bad_string');
  const err = badRequest(`${path} contains a NUL byte or an unpaired surrogate`, {
    issues: [{ path, message: 'contains a NUL byte or an unpaired surrogate' }],
  });
  return json(err.statusCode, { ...err.body(), request_id: requestId });
}

function respond(ctx: Context, f: Forwarded, host: HostEntry, decision: Decision): Answer {
  const { metrics, log } = ctx;
  if (decision.allow) {
    metrics.count('allow', decision.via);
    log.info(
      {
        reqId: f.requestId,
        decision: 'allow',
        reason: decision.via,
        ip: f.ip,
        host: f.host,
        user: decision.identity?.email,
      },
      'forward auth',
    );
    // All three always: the proxy copies them over client values, and Caddy would copy the
    // literal placeholder of a header that is absent. The assertion is what backends believe.
    const user = decision.identity?.email ?? '';
    const roles = decision.identity?.roles.join(',') ?? '';
    if (ctx.assertions === null)
      return {
        status: 200,
        headers: { 'x-auth-via': decision.via, 'x-auth-user': user, 'x-auth-roles': roles },
      };
    return {
      status: 200,
      headers: {
        'x-auth-via': decision.via,
        'x-auth-user': user,
        'x-auth-roles': roles,
        [ASSERTION_HEADER]: ctx.assertions.token(host, decision.via, decision.identity, Date.now()),
      },
    };
  }
  metrics.count('deny', decision.reason);
  log.info(
    { reqId: f.requestId, decision: 'deny', reason: decision.reason, ip: f.ip, host: f.host, uri: f.uri },
    'forward auth',
  );
  return denial(ctx, f);
}

/**
 * The login URL for a denied request, with the request as return target when its host is on the
 * return domains. Everything but the URI is worked out once per host.
 */
function loginUrlFor(config: Config) {
  const returnUrl = forwardedReturnUrl(config.ACCESS_RETURN_DOMAINS);
  const byHost = new Map<string, { login: string; rd: string | null }>();
  return (proto: 'http' | 'https', host: string, uri: string): string => {
    const key = `${proto}:${host}`;
    let known = byHost.get(key);
    if (!known) {
      const login = `${(config.ACCESS_PUBLIC_URL ?? derivedAccessUrl(proto, host)).replace(/\/$/, '')}/login`;
      const origin = returnUrl(proto, host, '/');
      known = { login, rd: origin ? `${login}?rd=${encodeURIComponent(origin.slice(0, -1))}` : null };
      if (byHost.size >= 10_000) byHost.clear();
      byHost.set(key, known);
    }
    return known.rd !== null && returnUrl(proto, host, uri) !== null
      ? known.rd + encodeURIComponent(uri)
      : known.login;
  };
}

function denial(ctx: Context, f: Forwarded): Answer {
  const loginUrl = ctx.loginUrl(f.proto, f.host, f.uri);
  const upper = f.method.toUpperCase();
  const kind = negotiate(
    {
      accept: one(f.headers.accept),
      xRequestedWith: one(f.headers['x-requested-with']),
      secFetchMode: one(f.headers['sec-fetch-mode']),
    },
    upper,
    ctx.config.ACCESS_DENIED_MODE,
  );
  const noStore = { 'cache-control': 'no-store' };
  switch (kind) {
    case 'json':
      // The fleet's error body, written out: this is the hot end of the deny path.
      return {
        status: 401,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        body: `{"type":"unauthorized","message":"Access denied","ip":${JSON.stringify(f.ip)},"login_url":${JSON.stringify(loginUrl)}}`,
      };
    case 'page':
      return {
        status: 401,
        headers: { ...noStore, 'content-type': 'text/html; charset=utf-8' },
        body: upper === 'HEAD' ? '' : deniedPage(f.ip, loginUrl),
      };
    case 'redirect':
      return { status: 302, headers: { ...noStore, location: loginUrl } };
    case 'see_other':
      return { status: 303, headers: { ...noStore, location: loginUrl } };
  }
}

/**
 * Redeems the one-time ticket the access host put in the URL after a login: the answer (which
 * the proxy hands to the browser, as it does every non-2xx answer) sets this host's own session
 * cookie and sends the browser on to where it was going.
 */
async function callback(deps: ValidateDeps, r: Forwarded): Promise<Answer> {
  const ticket = new URLSearchParams(r.uri.slice(r.uri.indexOf('?') + 1 || r.uri.length)).get('ticket');
  const bad = badStringPath(ticket, 'query.ticket');
  if (bad) return badString(deps, bad, r.requestId);
  const redeemed = ticket
    ? await deps.redeemTicket({ ticket, host: r.host, ip: r.ip, userAgent: one(r.headers['user-agent']) })
    : null;
  if (!redeemed) {
    deps.metrics.count('deny', 'invalid_ticket');
    deps.log.info(
      { reqId: r.requestId, decision: 'deny', reason: 'invalid_ticket', ip: r.ip, host: r.host },
      'forward auth',
    );
    return json(
      400,
      { type: 'invalid_data', message: 'This sign-in link is invalid, used or expired; sign in again' },
      { 'cache-control': 'no-store' },
    );
  }
  deps.metrics.count('login', 'ticket');
  deps.log.info(
    { reqId: r.requestId, decision: 'login', reason: 'ticket', ip: r.ip, host: r.host },
    'forward auth',
  );
  // Host-only cookies, like the login's own when no cookie domain is configured.
  const cookie = (name: string, value: string, maxAge: number) =>
    [
      `${name}=${value}`,
      'Path=/',
      `Max-Age=${maxAge}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(r.proto === 'https' ? ['Secure'] : []),
    ].join('; ');
  const cookies = [cookie(SESSION_COOKIE, redeemed.sessionToken, redeemed.maxAgeSeconds)];
  if (redeemed.device)
    cookies.push(cookie(DEVICE_COOKIE, redeemed.device.token, redeemed.device.maxAgeSeconds));
  return {
    status: 302,
    headers: { 'cache-control': 'no-store', location: redeemed.returnUrl, 'set-cookie': cookies },
  };
}
