import { createHash, randomInt } from 'node:crypto';

/**
 * Recovery codes of a second factor, the same for staff (access) and customers (auth): shown once
 * to their owner, stored as sha256 and spent once.
 */
export const RECOVERY_CODE_COUNT = 8;

// Without 0/O and 1/I/L: codes are read off paper and typed by hand.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx`, 10 letters drawn uniformly (about 49 bits). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export const newRecoveryCodes = (count = RECOVERY_CODE_COUNT) =>
  Array.from({ length: count }, newRecoveryCode);

/**
 * The stored form of a code as typed back: case, spaces and the dash do not matter. The hash is
 * taken over the shown form (`xxxxx-xxxxx`), as the customer codes always were.
 */
export function recoveryCodeHash(typed: string): string {
  const bare = typed.toLowerCase().replace(/[\s-]/g, '');
  const shown = bare.length === 10 ? `${bare.slice(0, 5)}-${bare.slice(5)}` : bare;
  return createHash('sha256').update(shown).digest('hex');
}
