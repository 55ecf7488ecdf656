import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { sql } from '@aplt/db';
import { safeEqual } from '@aplt/http';
import { z } from 'zod';
import type { Executor } from '../db';

/**
 * Self-hosted proof-of-work CAPTCHA (the ALTCHA scheme): the server picks a secret number n and
 * publishes challenge = sha256(salt + n) with an HMAC signature; the browser finds n by trying
 * 0..max. The salt carries the expiry, the signature proves the challenge is ours, and a spent
 * signature is stored so one solution cannot be replayed.
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
const hmac = (secret: string, s: string) => createHmac('sha256', secret).update(s).digest('hex');
const TTL_SECONDS = 600;

export function createChallenge(secret: string, maxNumber: number) {
  const expires = Math.floor(Date.now() / 1000) + TTL_SECONDS;
  const salt = `${randomBytes(12).toString('hex')}?expires=${expires}`;
  const challenge = sha256(`${salt}${randomInt(0, maxNumber + 1)}`);
  return {
    algorithm: 'SHA-256' as const,
    challenge,
    salt,
    signature: hmac(secret, challenge),
    maxnumber: maxNumber,
  };
}

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
  if (!safeEqual(s.signature, hmac(secret, s.challenge))) return 'invalid';
  if (sha256(`${s.salt}${s.number}`) !== s.challenge) return 'invalid';
  const expires = Number(/[?&]expires=(\d+)/.exec(s.salt)?.[1] ?? 0);
  if (expires * 1000 < Date.now()) return 'expired';
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
