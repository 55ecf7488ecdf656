import { sql } from '@aplt/db';
import type { Executor } from '../db';

export interface TotpState {
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | null;
  totp_pending_secret: string | null;
  recovery_codes_left: number;
}

export const totpState = (db: Executor, userId: number) =>
  db
    .selectFrom('access_users')
    .select((eb) => [
      'totp_secret',
      'totp_enabled_at',
      'totp_last_step',
      'totp_pending_secret',
      eb
        .selectFrom('access_recovery_codes')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('access_recovery_codes.user_id', '=', 'access_users.id')
        .where('used_at', 'is', null)
        .as('recovery_codes_left'),
    ])
    .where('id', '=', userId)
    .executeTakeFirst() as Promise<TotpState | undefined>;

/** What a login checks an app code against: the sealed secret and the last step accepted. */
export const totpSecretOf = (db: Executor, userId: number) =>
  db
    .selectFrom('access_users')
    .select(['totp_secret', 'totp_last_step'])
    .where('id', '=', userId)
    .executeTakeFirst();

/** Starts (or restarts) an enrolment: the sealed secret waits for a code that proves it. */
export async function setPendingSecret(db: Executor, userId: number, sealed: string, ttlSeconds: number) {
  await db
    .updateTable('access_users')
    .set({
      totp_pending_secret: sealed,
      totp_pending_expires_at: sql`now() + make_interval(secs => ${ttlSeconds})`,
    })
    .where('id', '=', userId)
    .execute();
}

export const livePendingSecret = async (db: Executor, userId: number) =>
  (
    await db
      .selectFrom('access_users')
      .select('totp_pending_secret')
      .where('id', '=', userId)
      .where('totp_pending_expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst()
  )?.totp_pending_secret ?? null;

/**
 * Adopts the pending secret (re-sealed for its final place) and replaces the recovery codes, in
 * the caller's transaction. False when the enrolment was finished or cancelled meanwhile.
 */
export async function enableTotp(
  db: Executor,
  userId: number,
  input: { pendingSealed: string; sealed: string; step: number; recoveryHashes: string[] },
): Promise<boolean> {
  const updated = await db
    .updateTable('access_users')
    .set({
      totp_secret: input.sealed,
      totp_enabled_at: sql`now()`,
      totp_last_step: input.step,
      totp_pending_secret: null,
      totp_pending_expires_at: null,
    })
    .where('id', '=', userId)
    .where('totp_pending_secret', '=', input.pendingSealed)
    .returning('id')
    .executeTakeFirst();
  if (!updated) return false;
  await replaceRecoveryCodes(db, userId, input.recoveryHashes);
  return true;
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('access_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('access_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

export async function disableTotp(db: Executor, userId: number): Promise<boolean> {
  const updated = await db
    .updateTable('access_users')
    .set({
      totp_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      totp_pending_secret: null,
      totp_pending_expires_at: null,
    })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  await db.deleteFrom('access_recovery_codes').where('user_id', '=', userId).execute();
  return updated !== undefined;
}

/**
 * Records `step` as the last accepted one, only when it is newer: of two concurrent logins with
 * the same code exactly one gets true.
 */
export async function claimStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('access_users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Spends a recovery code once (concurrent uses: one wins). */
export async function spendRecoveryCode(db: Executor, userId: number, hash: string): Promise<boolean> {
  const spent = await db
    .updateTable('access_recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return spent !== undefined;
}
