// scrypt-kdf 4 ships as an ES module whose default export is a class with static methods, while
// its bundled .d.ts declares named exports that do not exist at run time; we type the default.
import * as scryptModule from 'scrypt-kdf';

interface ScryptKdf {
  kdf(passphrase: string | Uint8Array, params: { logN: number; r: number; p: number }): Promise<Uint8Array>;
  verify(key: Uint8Array, passphrase: string | Uint8Array): Promise<boolean>;
}
const Scrypt = (scryptModule as unknown as { default: ScryptKdf }).default;

/** Medusa v2's parameters; they travel inside the hash, so a copied hash verifies anywhere. */
export const SCRYPT_PARAMS = { logN: 15, r: 8, p: 1 } as const;
/** Base64 of "scrypt", version 0, logN 15, r 8: the start of every default Medusa hash. */
export const MEDUSA_HASH_PREFIX = 'c2NyeXB0AA8AAAAI';

/** Base64 of the 96-byte scrypt-kdf key, as Medusa stores it in provider_metadata.password. */
export async function hashPassword(password: string): Promise<string> {
  return Buffer.from(await Scrypt.kdf(password, SCRYPT_PARAMS)).toString('base64');
}

export async function verifyPassword(storedBase64: string, password: string): Promise<boolean> {
  const key = Buffer.from(storedBase64, 'base64');
  if (key.length !== 96) return false;
  try {
    return await Scrypt.verify(new Uint8Array(key), password);
  } catch {
    return false;
  }
}
