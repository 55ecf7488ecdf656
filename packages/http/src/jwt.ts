import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** Medusa v2's token claims, so existing admin clients read our tokens unchanged. */
export interface ActorClaims {
  actor_id: string;
  actor_type: string;
  auth_identity_id: string;
  app_metadata: Record<string, unknown>;
}
export interface Actor {
  actorId: string;
  actorType: string;
  authIdentityId: string;
  appMetadata: Record<string, unknown>;
}

/**
 * Each tenant signs with a key derived from the master secret: a token issued by one tenant
 * fails signature verification on every other, with no extra claim to forget to check.
 */
export function tenantJwtSecret(masterSecret: string, tenantId: string): Uint8Array {
  return createHmac('sha256', masterSecret).update(`tenant:${tenantId}`).digest();
}

export async function signActorToken(
  secret: Uint8Array,
  claims: ActorClaims | Record<string, unknown>,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}

/** Returns the payload, or undefined for any invalid, expired or foreign token. */
export async function verifyActorToken<T = ActorClaims>(
  secret: Uint8Array,
  token: string,
): Promise<(T & { iat: number; exp: number }) | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    return payload as T & { iat: number; exp: number };
  } catch (err) {
    if (err instanceof errors.JOSEError) return undefined;
    throw err;
  }
}
