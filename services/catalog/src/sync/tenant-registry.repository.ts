import { type ApltDatabase, type Kysely, sql, type TenantRecord } from '@aplt/db';

/** The master's own list of update targets (aplt_tenants) with the time of the last update. */
export async function recordTenantUpdate(master: Kysely<ApltDatabase>, t: TenantRecord): Promise<void> {
  await sql`INSERT INTO aplt_tenants (code, name, kind, last_update_at, db_name)
    VALUES (${t.id}, ${t.name}, ${t.kind}, now(), ${t.apltDb.database})
    ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, last_update_at = now(), db_name = EXCLUDED.db_name`.execute(
    master,
  );
}

export async function lastUpdates(master: Kysely<ApltDatabase>): Promise<Map<string, Date | null>> {
  const rows = await master.selectFrom('aplt_tenants').select(['code', 'last_update_at']).execute();
  return new Map(rows.map((r) => [r.code, r.last_update_at]));
}
