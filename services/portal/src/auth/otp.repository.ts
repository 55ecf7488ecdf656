import type { Executor } from '../db';
import { type PortalDatabase, sql, type Transaction } from '@aplt/db';

type Db = Executor;

export interface OtpRow {
  id: number;
  code_hash: string;
  attempts: number;
  expired: number;
}

export async function insertCode(
  db: Db,
  values: { session_id: string; code_hash: string; ttlSeconds: number },
) {
  // A new code replaces every older one of the session.
  await db
    .updateTable('portal_otp_codes')
    .set({ used: 1 })
    .where('session_id', '=', values.session_id)
    .execute();
  await db
    .insertInto('portal_otp_codes')
    .values({
      session_id: values.session_id,
      code_hash: values.code_hash,
      expires_at: sql`CURRENT_TIMESTAMP(3) + INTERVAL ${values.ttlSeconds} SECOND`,
    })
    .execute();
}

/** The session's newest unused code, locked: attempts are counted read-modify-write. */
export async function lockCurrentCode(
  trx: Transaction<PortalDatabase>,
  sessionId: string,
): Promise<OtpRow | undefined> {
  return (await trx
    .selectFrom('portal_otp_codes')
    .select(['id', 'code_hash', 'attempts', sql<number>`expires_at <= CURRENT_TIMESTAMP(3)`.as('expired')])
    .where('session_id', '=', sessionId)
    .where('used', '=', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst()) as OtpRow | undefined;
}

export async function recordAttempt(db: Db, id: number): Promise<void> {
  await db
    .updateTable('portal_otp_codes')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', id)
    .execute();
}

export async function markUsed(db: Db, id: number): Promise<void> {
  await db.updateTable('portal_otp_codes').set({ used: 1 }).where('id', '=', id).execute();
}
