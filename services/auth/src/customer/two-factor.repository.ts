import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

type Db = Kysely<ApltDatabase>;

/** aplt_customer_2fa, aplt_otp_codes and aplt_otp_attempts in the tenant's aplt DB. */
export async function findTwoFactor(
  db: Db,
  email: string,
): Promise<{ enabled: boolean; recoveryCodes: string[] } | undefined> {
  const row = await db
    .selectFrom('aplt_customer_2fa')
    .select(['is_enabled', 'recovery_codes'])
    .where('customer_email', '=', email)
    .executeTakeFirst();
  return row ? { enabled: row.is_enabled, recoveryCodes: row.recovery_codes as string[] } : undefined;
}

export async function enableTwoFactor(db: Db, email: string, hashedCodes: string[]): Promise<void> {
  const codes = sql<string[]>`${JSON.stringify(hashedCodes)}::jsonb`;
  await db
    .insertInto('aplt_customer_2fa')
    .values({ customer_email: email, is_enabled: true, recovery_codes: codes })
    .onConflict((oc) =>
      oc
        .column('customer_email')
        .doUpdateSet({ is_enabled: true, recovery_codes: codes, updated_at: sql`now()` }),
    )
    .execute();
}

export async function disableTwoFactor(db: Db, email: string): Promise<void> {
  await db
    .updateTable('aplt_customer_2fa')
    .set({ is_enabled: false, recovery_codes: sql`'[]'::jsonb`, updated_at: sql`now()` })
    .where('customer_email', '=', email)
    .execute();
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
