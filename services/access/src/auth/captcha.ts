import { createHash, createHmac } from 'node:crypto';
import * as altcha from 'altcha-lib/v1';
import { sql } from '@aplt/db';
import { safeEqual } from '@aplt/http';
import { z } from 'zod';
import type { Executor } from '../db';

/**
 * Self-hosted proof-of-work CAPTCHA, ALTCHA's classic scheme through `altcha-lib` (its v1 API; the
 * ALTCHA widget speaks it too): the server picks a secret number n and publishes
 * challenge = sha256(salt + n) with an HMAC signature; the browser finds n by trying 0..max. The
 * salt carries the expiry, the signature proves the challenge is ours, and a spent signature is
 * stored so one solution cannot be replayed (the library leaves that to its user).
 */
export const captchaSolution = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().length(64),
  salt: z.string().min(1).max(200),
  signature: z.string().length(64),
  number: z.number().int().min(0),
});
export type CaptchaSolution = z.infer<typeof captchaSolution>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const TTL_SECONDS = 600;

export const createChallenge = (secret: string, maxNumber: number) =>
  altcha.createChallenge({
    algorithm: 'SHA-256',
    hmacKey: secret,
    maxNumber,
    expires: new Date(Date.now() + TTL_SECONDS * 1000),
  });

/** Solves a challenge the way the login page's script does (tests and benchmarks use it too). */
export function solveChallenge(c: { challenge: string; salt: string; maxnumber: number }): number {
  for (let n = 0; n <= c.maxnumber; n++) if (sha256(`${c.salt}${n}`) === c.challenge) return n;
  throw new Error('unsolvable challenge');
}

export type CaptchaVerdict = 'ok' | 'invalid' | 'expired' | 'replayed';

export async function verifySolution(
  db: Executor,
  secret: string,
  s: CaptchaSolution,
): Promise<CaptchaVerdict> {
  // The signature in constant time first: the library compares it as a plain string.
  if (!safeEqual(s.signature, createHmac('sha256', secret).update(s.challenge).digest('hex')))
    return 'invalid';
  // Every challenge of ours expires; one without an expiry would stay spendable, and spent, forever.
  const expires = Number(altcha.extractParams(s).expires ?? 0);
  if (!Number.isSafeInteger(expires) || expires <= 0) return 'invalid';
  if (expires * 1000 < Date.now()) return 'expired';
  if (!(await altcha.verifySolution(s, secret))) return 'invalid';
  const spent = await db
    .insertInto('access_captcha_spent')
    .values({ signature: s.signature, expires_at: sql`to_timestamp(${expires})` })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  if (!spent) return 'replayed';
  await db
    .deleteFrom('access_captcha_spent')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  return 'ok';
}
