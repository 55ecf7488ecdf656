import { sql } from '@aplt/db';
import type { Executor } from '../db';

export interface Limits {
  max: number;
  windowSeconds: number;
  banSeconds: number;
}

/**
 * Counts one attempt on every key in one statement, before the attempt is checked, and answers
 * whether it may be checked: at most `max` attempts per key and window get through, however many
 * arrive at once (each upsert waits for the row lock of the one before it and sees its count).
 * The attempt that reaches `max` bans the key for `banSeconds`; a key whose ban or window is over
 * starts again at 1. An attempt that is refused, or that turns out right, is given back
 * (`refund`), so only wrong guesses stay counted.
 */
export async function reserveAttempt(
  db: Executor,
  keys: string[],
  limits: Limits,
): Promise<{ allowed: boolean; retryAfterSeconds: number; over: string[] }> {
  const { max, windowSeconds: win, banSeconds: ban } = limits;
  const { rows } = await sql<{ key: string; failures: number; ban_left: number | null }>`
    INSERT INTO access_throttle AS t (key, failures, window_started_at, banned_until)
    SELECT k, 1, now(), CASE WHEN ${max} <= 1 THEN now() + make_interval(secs => ${ban}) END
    FROM unnest(${keys}::text[]) AS k ORDER BY k COLLATE "C"
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN ${stale(win)} THEN 1 ELSE t.failures + 1 END,
      window_started_at = CASE WHEN ${stale(win)} THEN now() ELSE t.window_started_at END,
      banned_until = CASE
        WHEN (CASE WHEN ${stale(win)} THEN 1 ELSE t.failures + 1 END) = ${max}
          THEN now() + make_interval(secs => ${ban})
        WHEN ${stale(win)} THEN NULL
        ELSE t.banned_until END
    RETURNING key, failures, ceil(extract(epoch FROM banned_until - now()))::int AS ban_left
  `.execute(db);
  const over = rows.filter((r) => r.failures > max);
  return {
    allowed: over.length === 0,
    retryAfterSeconds: Math.max(1, ...over.map((r) => r.ban_left ?? 1)),
    over: over.map((r) => r.key),
  };
}

/** Not banned and the window is over, or the ban is over: the key counts from zero again. */
const stale = (windowSeconds: number) => sql`(
  (t.banned_until IS NULL AND t.window_started_at < now() - make_interval(secs => ${windowSeconds}))
  OR t.banned_until <= now())`;

/**
 * The rows of `keys`, locked in key order. Every statement that touches several keys at once locks
 * them in this one order (the upsert above sorts its keys the same way): in whatever order a scan
 * happened to meet them, a refund and a concurrent attempt could each hold one key and wait for the
 * other, and PostgreSQL would abort one of them as a deadlock.
 */
const lockedInOrder = (keys: string[]) => sql`(
  SELECT key FROM access_throttle WHERE key = ANY(${keys}::text[]) ORDER BY key COLLATE "C" FOR UPDATE)`;

/** Gives an attempt back (refused unchecked, or right): a ban that count no longer reaches ends. */
export async function refundAttempt(db: Executor, keys: string[], max: number): Promise<void> {
  if (!keys.length) return;
  await sql`
    UPDATE access_throttle AS t SET
      failures = greatest(t.failures - 1, 0),
      banned_until = CASE WHEN t.failures - 1 < ${max} THEN NULL ELSE t.banned_until END
    FROM ${lockedInOrder(keys)} AS l
    WHERE t.key = l.key
  `.execute(db);
}

export async function clearFailures(db: Executor, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const r = await sql`
    DELETE FROM access_throttle AS t USING ${lockedInOrder(keys)} AS l WHERE t.key = l.key
  `.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export const listBans = (db: Executor) =>
  db
    .selectFrom('access_throttle')
    .select(['key', 'failures', 'banned_until'])
    .where('banned_until', '>', sql<Date>`now()`)
    .orderBy('banned_until', 'desc')
    .execute();
