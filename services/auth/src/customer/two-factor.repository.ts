import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

type Db = Kysely<ApltDatabase>;

export type TwoFactorMethod = 'email' | 'authenticator';

export interface TwoFactorRow {
  id: number;
  enabled: boolean;
  method: TwoFactorMethod;
  recoveryCodes: string[];
  /** The authenticator app's secret, sealed (null for e-mailed codes). */
  sealedSecret: string | null;
  /** The last time step an app code was accepted for. */
  lastStep: number | null;
}

/** aplt_customer_2fa, aplt_otp_codes and aplt_otp_attempts in the tenant's aplt DB. */
export async function findTwoFactor(db: Db, email: string): Promise<TwoFactorRow | undefined> {
  const row = await db
    .selectFrom('aplt_customer_2fa')
    .select(['id', 'is_enabled', 'method', 'recovery_codes', 'otp_secret', 'totp_last_step'])
    .where('customer_email', '=', email)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        enabled: row.is_enabled,
        method: row.method as TwoFactorMethod,
        recoveryCodes: row.recovery_codes as string[],
        sealedSecret: row.otp_secret,
        lastStep: row.totp_last_step,
      }
    : undefined;
}

/** E-mailed codes on (an earlier authenticator app, if any, is forgotten). */
export async function enableTwoFactor(db: Db, email: string, hashedCodes: string[]): Promise<void> {
  const codes = sql<string[]>`${JSON.stringify(hashedCodes)}::jsonb`;
  const email2fa = {
    is_enabled: true,
    method: 'email',
    otp_secret: null,
    totp_last_step: null,
    recovery_codes: codes,
  } as const;
  await db
    .insertInto('aplt_customer_2fa')
    .values({ customer_email: email, ...email2fa })
    .onConflict((oc) => oc.column('customer_email').doUpdateSet({ ...email2fa, updated_at: sql`now()` }))
    .execute();
}

/** Second factor off, whichever it was: the app's secret, an enrolment and the recovery codes go. */
export async function disableTwoFactor(db: Db, email: string): Promise<void> {
  await db
    .updateTable('aplt_customer_2fa')
    .set({
      is_enabled: false,
      method: 'email',
      otp_secret: null,
      totp_last_step: null,
      totp_pending_secret: null,
      totp_pending_expires_at: null,
      recovery_codes: sql`'[]'::jsonb`,
      updated_at: sql`now()`,
    })
    .where('customer_email', '=', email)
    .execute();
}

/**
 * The id of the customer's row, made (second factor still off) when missing: a sealed secret is
 * bound to it, so it must exist before an enrolment starts.
 */
export async function twoFactorRowId(db: Db, email: string): Promise<number> {
  const row = await db
    .insertInto('aplt_customer_2fa')
    .values({ customer_email: email })
    .onConflict((oc) => oc.column('customer_email').doUpdateSet({ updated_at: sql`now()` }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Starts (or restarts) an authenticator enrolment: the sealed secret waits for a code from the app. */
export async function setPendingSecret(db: Db, id: number, sealed: string, ttlSeconds: number) {
  await db
    .updateTable('aplt_customer_2fa')
    .set({
      totp_pending_secret: sealed,
      totp_pending_expires_at: sql`now() + make_interval(secs => ${ttlSeconds})`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export const livePendingSecret = (db: Db, email: string) =>
  db
    .selectFrom('aplt_customer_2fa')
    .select(['id', 'totp_pending_secret'])
    .where('customer_email', '=', email)
    .where('totp_pending_secret', 'is not', null)
    .where('totp_pending_expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst() as Promise<{ id: number; totp_pending_secret: string } | undefined>;

/**
 * Adopts the pending secret with its first accepted step and new recovery codes, in one
 * statement; false when the enrolment was finished, restarted or expired meanwhile.
 */
export async function enableAuthenticator(
  db: Db,
  id: number,
  input: { pendingSealed: string; step: number; recoveryHashes: string[] },
): Promise<boolean> {
  const updated = await db
    .updateTable('aplt_customer_2fa')
    .set({
      is_enabled: true,
      method: 'authenticator',
      otp_secret: input.pendingSealed,
      totp_last_step: input.step,
      totp_pending_secret: null,
      totp_pending_expires_at: null,
      recovery_codes: sql`${JSON.stringify(input.recoveryHashes)}::jsonb`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('totp_pending_secret', '=', input.pendingSealed)
    .where('totp_pending_expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/**
 * Records `step` as the last accepted one, only when it is newer: of two concurrent logins with
 * the same app code exactly one gets true.
 */
export async function claimStep(db: Db, id: number, step: number): Promise<boolean> {
  const claimed = await db
    .updateTable('aplt_customer_2fa')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where('is_enabled', '=', true)
    .where('method', '=', 'authenticator')
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Removes one hashed recovery code; true when it was there (each code works once). */
export async function consumeRecoveryCode(db: Db, email: string, hash: string): Promise<boolean> {
  const row = await db
    .updateTable('aplt_customer_2fa')
    .set({ recovery_codes: sql`recovery_codes - ${hash}::text`, updated_at: sql`now()` })
    .where('customer_email', '=', email)
    .where('is_enabled', '=', true)
    .where(sql<boolean>`jsonb_exists(recovery_codes, ${hash})`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A new code replaces every earlier unused one, so only the latest e-mail counts. */
export async function replaceOtpCode(db: Db, email: string, code: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('aplt_otp_codes')
      .set({ used: true })
      .where('customer_email', '=', email)
      .where('used', '=', false)
      .execute();
    await trx.insertInto('aplt_otp_codes').values({ customer_email: email, code }).execute();
  });
}

export async function consumeOtpCode(db: Db, email: string, code: string): Promise<boolean> {
  const row = await db
    .updateTable('aplt_otp_codes')
    .set({ used: true })
    .where('customer_email', '=', email)
    .where('code', '=', code)
    .where('used', '=', false)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordOtpAttempt(
  db: Db,
  a: { email: string; succeeded: boolean; ip: string },
): Promise<void> {
  await db
    .insertInto('aplt_otp_attempts')
    .values({ customer_email: a.email, succeeded: a.succeeded, ip_address: a.ip.slice(0, 45) })
    .execute();
}

/** Failed attempts in the window and seconds until the oldest of them leaves it. */
export async function recentFailedAttempts(
  db: Db,
  email: string,
  windowMinutes: number,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const row = await db
    .selectFrom('aplt_otp_attempts')
    .select([
      sql<number>`count(*)::int`.as('count'),
      sql<number>`coalesce(ceil(extract(epoch from min(created_at) + make_interval(mins => ${windowMinutes}) - now())), 0)::int`.as(
        'retry',
      ),
    ])
    .where('customer_email', '=', email)
    .where('succeeded', '=', false)
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${windowMinutes})`)
    .executeTakeFirstOrThrow();
  return { count: row.count, retryAfterSeconds: Math.max(1, row.retry) };
}

export async function codesSentSince(db: Db, email: string, windowMinutes: number): Promise<number> {
  const row = await db
    .selectFrom('aplt_otp_codes')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('customer_email', '=', email)
    .where('created_at', '>', sql<Date>`now() - make_interval(mins => ${windowMinutes})`)
    .executeTakeFirstOrThrow();
  return row.count;
}
