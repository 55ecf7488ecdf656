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

/**
 * Signs a tenant token. Besides Medusa's claims it carries `iat_ms`, the issue time in
 * milliseconds: a password change revokes tokens issued before it, and a token issued in the
 * same second just after the change must still work, which whole-second `iat` cannot tell apart.
 * `issuedAtMs` lets a login date its token from before it read the credentials.
 */
export async function signActorToken(
  secret: Uint8Array,
  claims: ActorClaims | Record<string, unknown>,
  ttlSeconds: number,
  issuedAtMs: number = Date.now(),
): Promise<string> {
  const iat = Math.floor(issuedAtMs / 1000);
  return new SignJWT({ ...claims, iat_ms: Math.floor(issuedAtMs) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(secret);
}

/**
 * When a verified token was issued, to the millisecond: `iat_ms` when it agrees with `iat`,
 * else the start of the `iat` second (tokens from before `iat_ms` existed, or foreign ones).
 */
export function tokenIssuedAt(claims: { iat?: unknown; iat_ms?: unknown }): Date {
  const iat = typeof claims.iat === 'number' && Number.isFinite(claims.iat) ? Math.floor(claims.iat) : 0;
  const ms = claims.iat_ms;
  if (typeof ms === 'number' && Number.isInteger(ms) && Math.floor(ms / 1000) === iat) return new Date(ms);
  return new Date(iat * 1000);
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
