import type { PortalDb } from '../db';
import { sql } from '@aplt/db';

export interface RecordedAttempt {
  id: number;
  /** Attempts on this e-mail within the window, this one included. */
  byEmail: number;
  /** Attempts from this client address within the window, this one included. */
  byIp: number;
}

/**
 * Records a login attempt, then counts the attempts in the window (this one included). The row is
 * committed before the count runs, so of N concurrent attempts the k-th to commit sees at least k
 * rows: no more than the limit can ever pass the check, however many arrive at once. (A count
 * can be higher than the attempt's rank while others are in flight; that only refuses sooner.)
 */
export async function recordAttempt(
  db: PortalDb,
  email: string,
  ip: string,
  windowSeconds: number,
): Promise<RecordedAttempt> {
  const inserted = await db
    .insertInto('portal_login_failures')
    .values({ email, ip })
    .executeTakeFirstOrThrow();
  const since = sql<Date>`CURRENT_TIMESTAMP(3) - INTERVAL ${windowSeconds} SECOND`;
  const counts = await db
    .selectNoFrom([
      db
        .selectFrom('portal_login_failures')
        .select(sql<number>`count(*)`.as('n'))
        .where('email', '=', email)
        .where('created_at', '>', since)
        .as('by_email'),
      db
        .selectFrom('portal_login_failures')
        .select(sql<number>`count(*)`.as('n'))
        .where('ip', '=', ip)
        .where('created_at', '>', since)
        .as('by_ip'),
    ])
    .executeTakeFirstOrThrow();
  return { id: Number(inserted.insertId), byEmail: Number(counts.by_email), byIp: Number(counts.by_ip) };
}

/** Removes an attempt that was refused before anything was checked. */
export async function forgetAttempt(db: PortalDb, id: number): Promise<void> {
  await db.deleteFrom('portal_login_failures').where('id', '=', id).execute();
}

export async function clearFailures(db: PortalDb, email: string): Promise<void> {
  await db.deleteFrom('portal_login_failures').where('email', '=', email).execute();
}

export async function deleteOldFailures(db: PortalDb, windowSeconds: number): Promise<void> {
  await db
    .deleteFrom('portal_login_failures')
    .where('created_at', '<', sql<Date>`CURRENT_TIMESTAMP(3) - INTERVAL ${windowSeconds} SECOND`)
    .execute();
}
