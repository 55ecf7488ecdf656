import { sql } from '@aplt/db';
import type { Executor } from '../db';

/** Seconds until the ban on `key` ends, or 0 when not banned. */
export async function banSecondsLeft(db: Executor, keys: string[]): Promise<number> {
  const row = await db
    .selectFrom('access_throttle')
    .select(sql<number>`coalesce(max(ceil(extract(epoch from banned_until - now()))), 0)::int`.as('left'))
    .where('key', 'in', keys)
    .where('banned_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Math.max(0, row?.left ?? 0);
}

/**
 * Counts one failure for each key inside a sliding window and bans a key that reaches `max`.
 * One statement per key, so concurrent failures are all counted.
 */
export async function recordFailure(
  db: Executor,
  keys: string[],
  limits: { max: number; windowSeconds: number; banSeconds: number },
): Promise<void> {
  for (const key of keys) {
    await sql`
      INSERT INTO access_throttle AS t (key, failures, window_started_at)
      VALUES (${key}, 1, now())
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN t.window_started_at < now() - make_interval(secs => ${limits.windowSeconds})
                        THEN 1 ELSE t.failures + 1 END,
        window_started_at = CASE WHEN t.window_started_at < now() - make_interval(secs => ${limits.windowSeconds})
                        THEN now() ELSE t.window_started_at END,
        banned_until = CASE WHEN t.window_started_at >= now() - make_interval(secs => ${limits.windowSeconds})
                             AND t.failures + 1 >= ${limits.max}
                        THEN now() + make_interval(secs => ${limits.banSeconds}) ELSE t.banned_until END
    `.execute(db);
  }
}

export async function clearFailures(db: Executor, keys: string[]): Promise<number> {
  const r = await db.deleteFrom('access_throttle').where('key', 'in', keys).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export const listBans = (db: Executor) =>
  db
    .selectFrom('access_throttle')
    .select(['key', 'failures', 'banned_until'])
    .where('banned_until', '>', sql<Date>`now()`)
    .orderBy('banned_until', 'desc')
    .execute();
