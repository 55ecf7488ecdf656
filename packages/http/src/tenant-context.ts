import { loadEnv, pgAddressFromEnv, pgEnv } from '@aplt/config';
import { createPgDb, type Kysely, type PgServer, sql, TenantDatabases, TenantRegistry } from '@aplt/db';

export interface TenantContext {
  control: Kysely<any>;
  registry: TenantRegistry;
  databases: TenantDatabases;
  close(): Promise<void>;
}

/**
 * The control-plane registry and the per-tenant pool cache that every multi-tenant service
 * needs. `overrides` lets a service point a database kind at its own server (APLT_DB_*,
 * SYNC_DB_*); by default every kind lives on PG_*.
 */
export function tenantContextFromEnv(
  overrides: { commerce?: PgServer; aplt?: PgServer } = {},
  source: Record<string, string | undefined> = process.env,
): TenantContext {
  const e = loadEnv(pgEnv, source);
  const server = pgAddressFromEnv(e);
  const control = createPgDb({ ...server, database: e.CONTROL_DB }, { max: 2 });
  const databases = new TenantDatabases({
    commerce: overrides.commerce ?? server,
    aplt: overrides.aplt ?? server,
  });
  return {
    control,
    registry: new TenantRegistry(control),
    databases,
    async close() {
      await databases.close();
      await control.destroy();
    },
  };
}

export async function pingPg(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}
