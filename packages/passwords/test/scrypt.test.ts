import * as scryptModule from 'scrypt-kdf';
import { describe, expect, it } from 'vitest';
import { hashPassword, MEDUSA_HASH_PREFIX, verifyPassword } from '../src';

// The library itself, used directly as the independent side.
const Scrypt = (scryptModule as unknown as { default: unknown }).default as {
  kdf(p: string, o: object): Promise<Uint8Array>;
  verify(k: Uint8Array, p: string): Promise<boolean>;
};

describe('scrypt password hashes (Medusa v2 format)', () => {
  it('writes base64 of a 96-byte logN-15 key that the library itself verifies', async () => {
    const stored = await hashPassword('Secret-pass-1');
    expect(stored.startsWith(MEDUSA_HASH_PREFIX)).toBe(true);
    expect(Buffer.from(stored, 'base64')).toHaveLength(96);
    expect(await Scrypt.verify(new Uint8Array(Buffer.from(stored, 'base64')), 'Secret-pass-1')).toBe(true);
  });

  it('verifies a hash written by scrypt-kdf directly, and refuses a wrong password or garbage', async () => {
    const foreign = Buffer.from(await Scrypt.kdf('other-Pass-2', { logN: 15, r: 8, p: 1 })).toString(
      'base64',
    );
    expect(await verifyPassword(foreign, 'other-Pass-2')).toBe(true);
    expect(await verifyPassword(foreign, 'other-pass-2')).toBe(false);
    expect(await verifyPassword('bm90IGEgaGFzaA==', 'x')).toBe(false);
  });
});
