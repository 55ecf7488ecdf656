import { type ApltDatabase, type CommerceDatabase, type Kysely, sql, type Transaction } from '@aplt/db';

/*
 * The storefront account: the commerce `customer` row (profile fields, metadata with
 * preferred_language, notifications and avatar_url), its avatar in `customer_avatar`, and the
 * matching `aplt_customers` row (by e-mail, spec 1) that documents read the language from.
 */

/** The tenant's commerce database, or a transaction on it. */
type CommerceDb = Kysely<CommerceDatabase>;
/** The tenant's aplt database, or a transaction on it. */
type ApltDb = Kysely<ApltDatabase>;

export interface AccountRow {
  id: string;
  /** Always set by registration; the column allows none (Medusa's guest customers). */
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company_name: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

export async function findAccount(db: CommerceDb, id: string): Promise<AccountRow | undefined> {
  const row = await db
    .selectFrom('customer')
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'phone',
      'company_name',
      'metadata',
      'created_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  // Every writer stores a JSON object here.
  return row && { ...row, metadata: row.metadata as AccountRow['metadata'] };
}

/** Sets the given columns and merges `metadata` (a patch: its keys replace those stored). */
export async function updateAccount(
  db: CommerceDb,
  id: string,
  columns: Partial<Pick<AccountRow, 'first_name' | 'last_name' | 'phone' | 'company_name'>>,
  metadata: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable('customer')
    .set({
      ...columns,
      metadata: sql`coalesce(metadata, '{}'::jsonb) || ${JSON.stringify(metadata)}::jsonb`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function removeMetadataKey(db: CommerceDb, id: string, key: string): Promise<void> {
  await db
    .updateTable('customer')
    .set({ metadata: sql`coalesce(metadata, '{}'::jsonb) - ${key}::text`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export interface AvatarRow {
  content_type: string;
  data: Buffer;
  sha256: string;
}

export async function putAvatar(
  db: CommerceDb,
  customerId: string,
  a: { contentType: string; data: Buffer; width: number; height: number; sha256: string },
): Promise<void> {
  await db
    .insertInto('customer_avatar')
    .values({
      customer_id: customerId,
      content_type: a.contentType,
      data: a.data,
      width: a.width,
      height: a.height,
      sha256: a.sha256,
    })
    .onConflict((oc) =>
      oc.column('customer_id').doUpdateSet({
        content_type: a.contentType,
        data: a.data,
        width: a.width,
        height: a.height,
        sha256: a.sha256,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

export async function findAvatar(db: CommerceDb, customerId: string): Promise<AvatarRow | undefined> {
  return db
    .selectFrom('customer_avatar')
    .select(['content_type', 'data', 'sha256'])
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

export async function deleteAvatar(db: CommerceDb, customerId: string): Promise<void> {
  await db.deleteFrom('customer_avatar').where('customer_id', '=', customerId).execute();
}

/** The documents' copy of the preferences: aplt_customers.language and metadata, by e-mail. */
export async function syncApltPreferences(
  aplt: ApltDb,
  email: string,
  prefs: { preferred_language?: string; notifications?: Record<string, boolean> },
): Promise<void> {
  if (!prefs.preferred_language && !prefs.notifications) return;
  await aplt
    .updateTable('aplt_customers')
    .set({
      ...(prefs.preferred_language ? { language: prefs.preferred_language } : {}),
      metadata: sql`metadata || ${JSON.stringify(prefs)}::jsonb`,
    })
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Soft delete: the customer and every identity linked to it are marked deleted in one
 * transaction. From then on requireActor refuses every token of the customer (its row is
 * deleted) and sign-in finds no identity. Returns false when the customer was already gone.
 */
export async function softDeleteCustomer(db: CommerceDb, customerId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('customer')
      .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', customerId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await trx
      .updateTable('auth_identity')
      .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
      .where(sql`app_metadata->>'customer_id'`, '=', customerId)
      .where('deleted_at', 'is', null)
      .execute();
    return true;
  });
}

export async function softDeleteApltCustomer(aplt: ApltDb, email: string): Promise<void> {
  await aplt
    .updateTable('aplt_customers')
    .set({ deleted_at: sql`now()`, is_active: false })
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .execute();
}

/** Deleted customers whose grace period ended before `cutoff` and that still hold personal data. */
export async function customersDueForAnonymisation(db: CommerceDb, cutoff: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('customer')
    .select('id')
    .where('deleted_at', 'is not', null)
    .where('anonymised_at', 'is', null)
    .where('deleted_at', '<=', cutoff)
    .orderBy('deleted_at')
    .limit(10_000)
    .execute();
  return rows.map((r) => r.id);
}

/** The deleted, not yet anonymised customer, locked; undefined when it is not due. */
export async function lockDueCustomer(
  trx: Transaction<CommerceDatabase>,
  customerId: string,
  cutoff: Date,
): Promise<{ id: string; email: string | null } | undefined> {
  return trx
    .selectFrom('customer')
    .select(['id', 'email'])
    .where('id', '=', customerId)
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<=', cutoff)
    .where('anonymised_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Removes the personal data of the aplt side, keyed by the e-mail (idempotent). */
export async function anonymiseApltCustomer(aplt: ApltDb, email: string): Promise<void> {
  const lower = email.toLowerCase();
  await aplt.transaction().execute(async (trx) => {
    await trx
      .updateTable('aplt_customers')
      .set({
        email: null,
        first_name: null,
        last_name: null,
        phone: null,
        address_line1: null,
        address_line2: null,
        postal_code: null,
        city: null,
        region: null,
        shipping_address: null,
        avatar_url: null,
        notes: null,
        commerce_customer_id: null,
        metadata: sql`'{}'::jsonb`,
        is_active: false,
        deleted_at: sql`coalesce(deleted_at, now())`,
        anonymized_at: sql`now()`,
      })
      .where(sql`lower(email)`, '=', lower)
      .execute();
    for (const table of [
      'aplt_customer_2fa',
      'aplt_otp_codes',
      'aplt_otp_attempts',
      'aplt_email_verifications',
    ] as const) {
      await trx
        .deleteFrom(table)
        .where(sql`lower(customer_email)`, '=', lower)
        .execute();
    }
  });
}

/** Removes the personal data of the commerce side; identities go, so the e-mail is free again. */
export async function anonymiseCommerceCustomer(
  trx: Transaction<CommerceDatabase>,
  customerId: string,
  email: string | null,
) {
  await trx
    .updateTable('customer')
    .set({
      email: `deleted-${customerId}@anonymised.invalid`,
      first_name: null,
      last_name: null,
      phone: null,
      company_name: null,
      metadata: sql`jsonb_build_object('anonymised_at', now())`,
      anonymised_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', customerId)
    .execute();
  await trx.deleteFrom('customer_avatar').where('customer_id', '=', customerId).execute();
  // provider_identity and auth_token_revocation rows go with their identity (ON DELETE CASCADE).
  await trx
    .deleteFrom('auth_identity')
    .where(sql`app_metadata->>'customer_id'`, '=', customerId)
    .execute();
  if (email) {
    await trx
      .deleteFrom('auth_reset_token')
      .where('entity_id', '=', email)
      .where('actor_type', '=', 'customer')
      .execute();
  }
}
