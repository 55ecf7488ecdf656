import { sql } from '@aplt/db';
import type { Executor } from '../db';

/** A login between its password and its one-time code (or its forced password change). */
export interface ChallengeRow {
  id: string;
  user_id: number;
  code_hash: string;
  channel: string;
  trust_device: boolean;
  attempts: number;
}

export type ChallengeState = 'otp' | 'change_password' | 'done';

export async function insertChallenge(
  db: Executor,
  c: {
    id: string;
    userId: number;
    codeHash: string;
    channel: string;
    trustDevice: boolean;
    ip: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db
    .insertInto('access_login_challenges')
    .values({
      id: c.id,
      user_id: c.userId,
      code_hash: c.codeHash,
      channel: c.channel,
      trust_device: c.trustDevice,
      ip: c.ip,
      expires_at: sql`now() + make_interval(secs => ${c.ttlSeconds})`,
    })
    .execute();
}

/** The challenge with this (hashed) id, in this state and not expired. */
export async function findLiveChallenge(
  db: Executor,
  id: string,
  state: Exclude<ChallengeState, 'done'>,
): Promise<ChallengeRow | undefined> {
  const row = await db
    .selectFrom('access_login_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('state', '=', state)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row as ChallengeRow | undefined;
}

export async function setChallengeState(db: Executor, id: string, state: ChallengeState): Promise<void> {
  await db.updateTable('access_login_challenges').set({ state }).where('id', '=', id).execute();
}

/**
 * Counts one code against the challenge before the code is checked, in one statement, so
 * concurrent guesses cannot all slip under `max`; false once `max` codes were counted.
 */
export async function countCodeAttempt(db: Executor, id: string, max: number): Promise<boolean> {
  const counted = await db
    .updateTable('access_login_challenges')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', id)
    .where('attempts', '<', max)
    .returning('attempts')
    .executeTakeFirst();
  return counted !== undefined;
}
