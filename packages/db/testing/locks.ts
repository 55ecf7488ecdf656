import { type Kysely, sql } from 'kysely';

/**
 * Waits for the moment a concurrency test needs: a session of this database blocked on a lock
 * (`waitForLockWaiter`), or one holding its transaction open after `query` (`waitForLockHolder`).
 * Polls pg_stat_activity for up to ten seconds.
 */
export function waitForLockWaiter<DB>(db: Kysely<DB>): Promise<void> {
  return pollActivity(db, sql`wait_event_type = 'Lock'`, 'no session waits for a lock');
}

export function waitForLockHolder<DB>(db: Kysely<DB>, query: string): Promise<void> {
  return pollActivity(
    db,
    sql`state = 'idle in transaction' AND query ILIKE ${`${query}%`}`,
    `no session holds its transaction open after: ${query}`,
  );
}

async function pollActivity<DB>(
  db: Kysely<DB>,
  where: ReturnType<typeof sql>,
  failure: string,
): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND ${where}`.execute(db);
    if (r.rows[0]!.n > 0) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(failure);
}
