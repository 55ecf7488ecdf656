import { normaliseHost } from '@aplt/db';
import {
  badRequest,
  badStringPath,
  bearerToken,
  forbidden,
  issueCsrfToken,
  safeEqual,
  unauthorized,
} from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityCache } from '../forward-auth/identity-cache';
import type { Identity } from './session.repository';
import { CSRF_COOKIE, DEVICE_COOKIE, SESSION_COOKIE } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
  }
}

/**
 * The user of the request's live session cookie, or null. A hand-over child session counts only
 * on the host it was made for, so one copied from a tenant host is no login here.
 */
export async function sessionIdentity(
  identities: IdentityCache,
  request: FastifyRequest,
): Promise<Identity | null> {
  const token = request.cookies[SESSION_COOKIE];
  const identity = token ? await identities.session(token) : null;
  if (identity?.boundHost && identity.boundHost !== normaliseHost(request.host)) return null;
  return identity;
}

/** preHandler: a live session of this service, put on request.identity; 401 otherwise. */
export function requireSession(identities: IdentityCache) {
  return async (request: FastifyRequest) => {
    const identity = await sessionIdentity(identities, request);
    if (!identity) throw unauthorized('Sign in first', { login_url: '/login' });
    request.identity = identity;
  };
}

/**
 * preHandler of the license reads: another service with `Authorization: Bearer <SERVICE_TOKEN>`
 * (request.identity stays null), or a signed-in user (the admin UI); 401 otherwise.
 */
export function requireSessionOrService(identities: IdentityCache, serviceToken: string) {
  return async (request: FastifyRequest) => {
    const bearer = bearerToken(request);
    if (bearer !== undefined) {
      if (safeEqual(bearer, serviceToken)) return;
      throw unauthorized('Wrong service token');
    }
    const identity = await sessionIdentity(identities, request);
    if (!identity) throw unauthorized('Sign in or present the service token', { login_url: '/login' });
    request.identity = identity;
  };
}

export function requireRole(role: string) {
  return async (request: FastifyRequest) => {
    if (!request.identity?.roles.includes(role))
      throw forbidden(`Requires the ${role} role`, { required_role: role });
  };
}

const ownCookies = [SESSION_COOKIE, DEVICE_COOKIE, CSRF_COOKIE] as const;

/**
 * The string rule of @aplt/http for the cookies this service reads (the cookie plugin decodes
 * percent escapes, so `%00` arrives as a NUL): 400 naming the cookie. A callback hook: it runs
 * on every request.
 */
export function rejectBadCookies(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  for (const name of ownCookies) {
    const path = badStringPath(request.cookies[name], `cookie ${name}`);
    if (path)
      return done(
        badRequest(`${path} contains a NUL byte or an unpaired surrogate`, {
          issues: [{ path, message: 'contains a NUL byte or an unpaired surrogate' }],
        }),
      );
  }
  done();
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** A CSRF token for the page or client (its secret cookie is set when there is none yet). */
export const ensureCsrfToken = issueCsrfToken;
