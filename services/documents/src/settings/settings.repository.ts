import type { Kysely } from '@aplt/db';

/** Raw values of the given aplt_settings keys (absent keys are missing from the map). */
export async function readSettings(db: Kysely<any>, keys: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('aplt_settings')
    .select(['key', 'value'])
    .where('key', 'in', keys)
    .execute();
  return new Map(rows.filter((r) => r.value != null && r.value !== '').map((r) => [r.key, r.value]));
}
