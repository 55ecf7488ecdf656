import type { Executor } from '../db';
import { sql } from '@aplt/db';
import type { Role } from './user.repository';

type Db = Executor;

export interface SessionWithUser {
  session_id: string;
  second_factor_passed: number;
  expires_at: Date;
  user_id: number;
  email: string;
  name: string;
  role: Role;
}

export async function insertSession(
  db: Db,
  values: { id: string; user_id: number; expires_at: Date; ip: string | null; user_agent: string | null },
): Promise<void> {
  await db.insertInto('portal_sessions').values(values).execute();
}

/** A live session of an active user; expired sessions and deactivated users count as none. */
export async function findLiveSession(db: Db, id: string): Promise<SessionWithUser | undefined> {
  return (await db
    .selectFrom('portal_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as session_id',
      's.second_factor_passed',
      's.expires_at',
      'u.id as user_id',
      'u.email',
      'u.name',
      'u.role',
    ])
    .where('s.id', '=', id)
    .where('s.expires_at', '>', sql<Date>`CURRENT_TIMESTAMP(3)`)
    .where('u.is_active', '=', 1)
    .executeTakeFirst()) as SessionWithUser | undefined;
}

export async function markSecondFactorPassed(db: Db, id: string): Promise<void> {
  await db
    .updateTable('portal_sessions')
    .set({ second_factor_passed: 1, last_seen_at: sql`CURRENT_TIMESTAMP(3)` })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('id', '=', id).execute();
}

export async function deleteOtherSessions(db: Db, userId: number, keepId: string): Promise<number> {
  const res = await db
    .deleteFrom('portal_sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db
    .deleteFrom('portal_sessions')
    .where('expires_at', '<=', sql<Date>`CURRENT_TIMESTAMP(3)`)
    .execute();
}
