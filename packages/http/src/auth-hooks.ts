import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors';
import { type Actor, type ActorClaims, tenantJwtSecret, verifyActorToken } from './jwt';

declare module 'fastify' {
  interface FastifyInstance {
    jwtSecret: string | undefined;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** Storefront customers carry their token in this cookie (spec 1, authentication 5). */
export const CUSTOMER_COOKIE = '_commerce_jwt';
/** Medusa v2's cookie session (`POST /auth/session`), which its admin dashboard uses by default. */
export const SESSION_COOKIE = 'connect.sid';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  return undefined;
}

/**
 * preHandler that demands a valid token of the tenant for the given actor type (`user` for
 * admins, `customer` for storefront customers) and puts the actor on the request. The token comes
 * from the bearer header, else Medusa's session cookie, else (customers) the storefront cookie.
 */
export function requireActor(actorType: 'user' | 'customer') {
  return async function actorGuard(request: FastifyRequest): Promise<void> {
    const secret = request.server.jwtSecret;
    if (!secret || !request.tenant) throw unauthorized();
    const token =
      bearer(request) ??
      request.cookies?.[SESSION_COOKIE] ??
      (actorType === 'customer' ? request.cookies?.[CUSTOMER_COOKIE] : undefined);
    if (!token) throw unauthorized();
    const claims = await verifyActorToken<ActorClaims>(tenantJwtSecret(secret, request.tenant.id), token);
    if (!claims || claims.actor_type !== actorType || !claims.actor_id) throw unauthorized();
    request.actor = {
      actorId: claims.actor_id,
      actorType: claims.actor_type,
      authIdentityId: claims.auth_identity_id,
      appMetadata: claims.app_metadata ?? {},
    };
  };
}
