import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

export const SESSION_COOKIE = 'service_portal_sid';

/** 32 random bytes for the cookie; only their SHA-256 is stored, so a leaked table opens nothing. */
export function newSessionToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: sessionIdOf(token) };
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Keyed by the session, so the same code in two sessions never has the same hash. */
export function codeHash(sessionId: string, code: string): string {
  return createHmac('sha256', sessionId).update(code).digest('hex');
}
