import { randomFillSync } from 'node:crypto';
import { ulid as makeUlid } from 'ulid';

// ulid's default generator asks the OS for one random byte per character (16 calls per id, about
// 30 µs): bulk writers such as the commerce sync make hundreds of thousands of ids. The same
// cryptographic randomness is drawn here 4 KB at a time. A byte / 256 scaled to the 32 ULID
// characters stays uniform (256 is a multiple of 32).
const pool = Buffer.alloc(4096);
let next = pool.length;
const prng = () => {
  if (next >= pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return (pool[next++] as number) / 256;
};
const ulid = () => makeUlid(undefined, prng);

/** Medusa-style ids: `<prefix>_<ULID>` (authid_, user_, cus_, ...); a bare ULID without a prefix. */
export function newId(prefix?: string): string {
  return prefix ? `${prefix}_${ulid()}` : ulid();
}
