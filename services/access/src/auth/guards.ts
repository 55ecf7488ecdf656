import { randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden, unauthorized } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityCache } from '../forward-auth/identity-cache';
import type { Identity } from './session.repository';
import { CSRF_COOKIE, SESSION_COOKIE } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
  }
}

/** preHandler: a live session of this service, put on request.identity; 401 otherwise. */
export function requireSession(identities: IdentityCache) {
  return async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    const identity = token ? await identities.session(token) : null;
    if (!identity) throw unauthorized('Sign in first', { login_url: '/login' });
    request.identity = identity;
  };
}

export function requireRole(role: string) {
  return async (request: FastifyRequest) => {
    if (!request.identity?.roles.includes(role))
      throw forbidden(`Requires the ${role} role`, { required_role: role });
  };
}

/**
 * Double-submit CSRF check on every state-changing request: the x-csrf-token header must equal
 * the SameSite=Strict csrf cookie, which a page of another origin can neither read nor set.
 * A callback hook, not an async one: it runs on every request, forward auth's included.
 */
export function csrfCheck(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
  const cookie = request.cookies[CSRF_COOKIE];
  const header = request.headers['x-csrf-token'];
  const sent = typeof header === 'string' ? header : undefined;
  if (
    !cookie ||
    !sent ||
    cookie.length !== sent.length ||
    !timingSafeEqual(Buffer.from(cookie), Buffer.from(sent))
  )
    return done(forbidden('Missing or wrong CSRF token', { csrf: true }));
  done();
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Hands out the CSRF token (and sets its cookie when there is none yet). */
export function ensureCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{20,}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  void reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'strict',
    secure: isHttps(request),
    httpOnly: false,
  });
  return token;
}
