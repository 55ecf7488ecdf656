import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from '@aplt/http';
import type { FastifyBaseLogger } from 'fastify';
import type { RedeemedTicket } from '../auth/login-ticket.service';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../auth/tokens';
import type { Config } from '../config';
import { clientIpResolver } from './client-ip';
import { cookieValue } from './cookie-value';
import { deniedPage } from './denied-page';
import type { IdentityCache } from './identity-cache';
import type { DecisionMetrics } from './metrics';
import { derivedAccessUrl, safeReturnUrl } from './return-url';
import { decide, negotiate } from './validate.service';
import type { Whitelist } from './whitelist';

/** Path on every protected host where a login made on the access host is handed over. */
export const CALLBACK_PATH = '/_access/callback';

export interface ValidateDeps {
  config: Config;
  whitelist: Whitelist;
  identities: IdentityCache;
  metrics: DecisionMetrics;
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
  const clientIp = clientIpResolver(deps.config.TRUSTED_PROXIES);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = one(req.headers['x-request-id']) || randomUUID();
    answer(deps, clientIp, req, requestId).then(
      (a) => write(req, res, requestId, a),
      (err: unknown) => {
        deps.log.error({ err, reqId: requestId }, 'forward auth failed');
        write(
          req,
          res,
          requestId,
          json(500, { type: 'unexpected_state', message: 'Access check failed', request_id: requestId }),
        );
      },
    );
  };
}

function write(req: IncomingMessage, res: ServerResponse, requestId: string, a: Answer) {
  const body = a.body ?? '';
  a.headers['x-request-id'] = requestId;
  a.headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(a.status, a.headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function answer(
  deps: ValidateDeps,
  clientIp: (peer: string, xff: string | undefined) => string,
  req: IncomingMessage,
  requestId: string,
): Promise<Answer> {
  const { config, metrics, log } = deps;
  const h = req.headers;
  const method = one(h['x-forwarded-method']);
  const host = one(h['x-forwarded-host']);
  const uri = one(h['x-forwarded-uri']);
  if (!method || !host || !uri) {
    metrics.count('bad_request', 'missing_forwarded_headers');
    const err = badRequest(
      'X-Forwarded-Method, X-Forwarded-Host and X-Forwarded-Uri are required (forward auth only)',
      {
        missing: [
          !method && 'X-Forwarded-Method',
          !host && 'X-Forwarded-Host',
          !uri && 'X-Forwarded-Uri',
        ].filter(Boolean),
      },
    );
    return json(err.statusCode, { ...err.body(), request_id: requestId });
  }
  const ip = clientIp(req.socket.remoteAddress ?? '', one(h['x-forwarded-for']));
  const proto = one(h['x-forwarded-proto']) === 'https' ? 'https' : 'http';

  // The hand-over of a login made on the access host never reaches a backend, whitelisted or not.
  if (
    uri.startsWith(CALLBACK_PATH) &&
    (uri.length === CALLBACK_PATH.length || '?/'.includes(uri[CALLBACK_PATH.length]!))
  )
    return callback(deps, { uri, host, ip, proto, userAgent: one(h['user-agent']), requestId });

  const cookies = one(h.cookie);
  const decision = await decide(deps, {
    ip,
    sessionToken: cookieValue(cookies, SESSION_COOKIE),
    deviceToken: cookieValue(cookies, DEVICE_COOKIE),
  });
  if (decision.allow) {
    metrics.count('allow', decision.via);
    log.info(
      { reqId: requestId, decision: 'allow', reason: decision.via, ip, host, user: decision.identity?.email },
      'forward auth',
    );
    // All three always: the proxy copies them over client values, and Caddy would copy the
    // literal placeholder of a header that is absent.
    return {
      status: 200,
      headers: {
        'x-auth-via': decision.via,
        'x-auth-user': decision.identity?.email ?? '',
        'x-auth-roles': decision.identity?.roles.join(',') ?? '',
      },
    };
  }
  metrics.count('deny', decision.reason);
  log.info({ reqId: requestId, decision: 'deny', reason: decision.reason, ip, host, uri }, 'forward auth');
  return denial(config, { method, host, uri, proto, ip, accept: h });
}

function denial(
  config: Config,
  r: {
    method: string;
    host: string;
    uri: string;
    proto: string;
    ip: string;
    accept: IncomingMessage['headers'];
  },
): Answer {
  const loginBase = config.ACCESS_PUBLIC_URL ?? derivedAccessUrl(r.proto, r.host);
  const returnTo = safeReturnUrl(`${r.proto}://${r.host}${r.uri}`, config.ACCESS_RETURN_DOMAINS);
  const loginUrl = `${loginBase.replace(/\/$/, '')}/login${returnTo ? `?rd=${encodeURIComponent(returnTo)}` : ''}`;
  const upper = r.method.toUpperCase();
  const kind = negotiate(
    {
      accept: one(r.accept.accept),
      xRequestedWith: one(r.accept['x-requested-with']),
      secFetchMode: one(r.accept['sec-fetch-mode']),
    },
    upper,
    config.ACCESS_DENIED_MODE,
  );
  const noStore = { 'cache-control': 'no-store' };
  switch (kind) {
    case 'json':
      return json(
        401,
        { type: 'unauthorized', message: 'Access denied', ip: r.ip, login_url: loginUrl },
        noStore,
      );
    case 'page':
      return {
        status: 401,
        headers: { ...noStore, 'content-type': 'text/html; charset=utf-8' },
        body: upper === 'HEAD' ? '' : deniedPage(r.ip, loginUrl),
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
async function callback(
  deps: ValidateDeps,
  r: {
    uri: string;
    host: string;
    ip: string;
    proto: string;
    userAgent: string | undefined;
    requestId: string;
  },
): Promise<Answer> {
  const ticket = new URLSearchParams(r.uri.slice(r.uri.indexOf('?') + 1 || r.uri.length)).get('ticket');
  const redeemed = ticket
    ? await deps.redeemTicket({ ticket, host: r.host, ip: r.ip, userAgent: r.userAgent })
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
