import { actorTokenValid, type ActorTokenFacts, type TenantDatabases, type TenantRecord } from '@aplt/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from './errors';
import { type Actor, type ActorClaims, tenantJwtSecret, tokenIssuedAt, verifyActorToken } from './jwt';

/**
 * Whether a token whose signature is good may still be used: its user or customer still
 * exists, and no password change since its issue revoked it.
 */
export type ActorCheck = (tenant: TenantRecord, token: ActorTokenFacts) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyInstance {
    jwtSecret: string | undefined;
    /** Set by `useActorCheck` (bootTenantService does it for every tenant backend). */
    actorCheck?: ActorCheck;
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
 * The check against the tenant's commerce database: one query of primary-key lookups per
 * authenticated request and no cache, so a deleted user or a password reset takes effect on the
 * next request in every service.
 */
export function commerceActorCheck(databases: TenantDatabases): ActorCheck {
  return (tenant, token) => actorTokenValid(databases.commerce(tenant), token);
}

/** Makes `requireActor` of this app ask `check` after the signature (before the app is ready). */
export function useActorCheck(app: FastifyInstance, check: ActorCheck): void {
  app.decorate('actorCheck', check);
}

/**
 * preHandler that demands a valid token of the tenant for the given actor type (`user` for
 * admins, `customer` for storefront customers) and puts the actor on the request. The token comes
 * from the bearer header, else Medusa's session cookie, else (customers) the storefront cookie.
 * With an actor check installed (`useActorCheck`), a token of a deleted user or customer, or one
 * issued before the identity's last password change, is refused like a forged one.
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
    const check = request.server.actorCheck;
    if (check) {
      if (typeof claims.actor_id !== 'string' || typeof claims.auth_identity_id !== 'string')
        throw unauthorized();
      const valid = await check(request.tenant, {
        actorType,
        actorId: claims.actor_id,
        authIdentityId: claims.auth_identity_id,
        issuedAt: tokenIssuedAt(claims),
      });
      if (!valid) throw unauthorized();
    }
    request.actor = {
      actorId: claims.actor_id,
      actorType: claims.actor_type,
      authIdentityId: claims.auth_identity_id,
      appMetadata: claims.app_metadata ?? {},
    };
  };
}
