import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

/** Raw values of the given aplt_settings keys (absent keys are missing from the map). */
export async function readSettings(db: Kysely<ApltDatabase>, keys: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('aplt_settings')
    .select(['key', 'value'])
    .where('key', 'in', keys)
    .execute();
  return new Map(rows.flatMap((r) => (r.value != null && r.value !== '' ? [[r.key, r.value] as const] : [])));
}

export async function listSettings(db: Kysely<ApltDatabase>) {
  return db
    .selectFrom('aplt_settings')
    .select(['key', 'value', 'value_type', 'description', 'updated_at'])
    .orderBy('key')
    .execute();
}

/** Locks the settings rows of `keys` (and serialises writers of absent keys) until commit. */
export async function lockSettings(db: Kysely<ApltDatabase>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('aplt_settings'))`.execute(db);
}

export async function upsertSetting(
  db: Kysely<ApltDatabase>,
  row: { key: string; value: string; value_type: string; description: string },
): Promise<void> {
  await db
    .insertInto('aplt_settings')
    .values(row)
    // The row's own description (someone may have written one) stays; only the value changes.
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, value_type: row.value_type }))
    .execute();
}

export async function deleteSetting(db: Kysely<ApltDatabase>, key: string): Promise<void> {
  await db.deleteFrom('aplt_settings').where('key', '=', key).execute();
}

export async function listVatCodes(db: Kysely<ApltDatabase>) {
  return db
    .selectFrom('aplt_vat_codes')
    .select(['id', 'code', 'name', 'rate', 'category', 'is_default', 'is_active'])
    .orderBy('rate', 'desc')
    .orderBy('code')
    .execute();
}

export async function listPaymentTerms(db: Kysely<ApltDatabase>) {
  return db
    .selectFrom('aplt_payment_terms')
    .select(['id', 'code', 'name_nl', 'name_en', 'days', 'is_default', 'is_active'])
    .orderBy('days')
    .orderBy('code')
    .execute();
}
