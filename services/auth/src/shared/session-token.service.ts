import { actorTokenValid, type CommerceDatabase, type TenantRecord } from '@aplt/db';
import { type ActorClaims, tokenIssuedAt } from '@aplt/http';
import type { AuthDeps } from './deps';

export type SessionClaims = ActorClaims & { actor_type: 'user' | 'customer'; iat: number; exp: number };

/**
 * A session token of this tenant that may still be used: good signature, admin or customer
 * claims, and (one query) its identity and actor still exist and no password change since its
 * issue revoked it. Registration tokens (`actor_id: ''`) pass when their identity does.
 */
export async function verifySessionToken(
  deps: Pick<AuthDeps, 'tokens' | 'databases'>,
  tenant: TenantRecord,
  raw: string | undefined,
): Promise<SessionClaims | undefined> {
  if (!raw) return undefined;
  const claims = await deps.tokens.verifySession(tenant, raw);
  if (
    !claims ||
    (claims.actor_type !== 'user' && claims.actor_type !== 'customer') ||
    typeof claims.actor_id !== 'string' ||
    typeof claims.auth_identity_id !== 'string'
  )
    return undefined;
  const valid = await actorTokenValid(deps.databases.commerce<CommerceDatabase>(tenant), {
    actorType: claims.actor_type,
    actorId: claims.actor_id,
    authIdentityId: claims.auth_identity_id,
    issuedAt: tokenIssuedAt(claims),
  });
  return valid ? (claims as SessionClaims) : undefined;
}
