import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time equality of two secrets as byte strings. Both sides are hashed first, so inputs
 * of different lengths or with non-ASCII characters compare as unequal instead of throwing
 * (timingSafeEqual throws on a length mismatch), and the time leaks neither length nor prefix.
 */
export function safeEqual(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== 'string' || expected.length === 0) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
