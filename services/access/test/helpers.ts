import type { HttpResponse } from '@aplt/testing';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { solveChallenge } from '../src/auth/captcha';

export type Send = (
  path: string,
  opts?: { method?: string; headers?: Record<string, string>; body?: unknown },
) => Promise<HttpResponse>;

/** name=value pairs of every Set-Cookie, for carrying cookies by hand like a browser would. */
export function cookiesOf(res: HttpResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(
    list.map((c) => {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      return [pair.slice(0, i), pair.slice(i + 1)];
    }),
  );
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** A CSRF token and the cookie holding its secret, as a browser gets them from GET /api/auth/csrf. */
export async function csrfSession(send: Send) {
  const res = await send('/api/auth/csrf');
  const token = res.json().csrf_token as string;
  return { token, cookie: `aplt_csrf=${cookiesOf(res).aplt_csrf}` };
}

export async function solvedCaptcha(send: Send) {
  const c = (await send('/api/auth/captcha')).json();
  return {
    algorithm: c.algorithm,
    challenge: c.challenge,
    salt: c.salt,
    signature: c.signature,
    number: solveChallenge(c),
  };
}

/** Steps 1 (CAPTCHA + password) of the login; returns the response and the CSRF pair used. */
export async function startLogin(
  send: Send,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  const csrf = await csrfSession(send);
  const res = await send('/api/auth/login', {
    method: 'POST',
    headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
    body: { email, password, captcha: await solvedCaptcha(send), ...extra },
  });
  return { res, csrf };
}

export const codeFromMail = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

/** A Send over Fastify's inject, as client `remoteAddress` (no proxy in between). */
export function injectSend(
  app: { inject: (o: InjectOptions) => Promise<LightMyRequestResponse> },
  remoteAddress = '127.0.0.9',
): Send {
  return async (path, opts = {}) => {
    const res = await app.inject({
      method: (opts.method ?? 'GET') as never,
      url: path,
      headers: opts.headers,
      remoteAddress,
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
    const body = res.rawPayload as Buffer;
    return {
      status: res.statusCode,
      // Fastify's inject types numeric headers too; the access app sends none.
      headers: res.headers as HttpResponse['headers'],
      body,
      text: () => body.toString('utf8'),
      json: () => JSON.parse(body.toString('utf8')),
    };
  };
}
