import type { PortalDb } from '../db';
import { forbidden, unauthorized } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { findLiveSession, type SessionWithUser } from './session.repository';
import { SESSION_COOKIE, sessionIdOf } from './tokens';
import type { Role } from './user.repository';

declare module 'fastify' {
  interface FastifyRequest {
    portal: SessionWithUser | null;
  }
}

export async function sessionOf(db: PortalDb, request: FastifyRequest): Promise<SessionWithUser | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return undefined;
  return findLiveSession(db, sessionIdOf(token));
}

/**
 * preHandler: a live portal session on request.portal. `secondFactor: false` admits a session
 * that has only passed the password step (for verify-2fa itself).
 */
export function requirePortalSession(db: PortalDb, opts: { secondFactor: boolean; roles?: Role[] }) {
  return async (request: FastifyRequest) => {
    const session = await sessionOf(db, request);
    if (!session) throw unauthorized('Log in first', { login_required: true });
    if (opts.secondFactor && !session.second_factor_passed)
      throw unauthorized('Verify the code sent to you first', { second_factor_required: true });
    if (opts.roles && !opts.roles.includes(session.role))
      throw forbidden(`Requires one of the roles ${opts.roles.join(', ')}`, { required_roles: opts.roles });
    request.portal = session;
  };
}
