import { apltDbEnv, loadEnv, pgAddressFromEnv, pgEnv, tenantServersFromEnv } from '@aplt/config';
import {
  type ControlDatabase,
  createPgDb,
  type Kysely,
  type PgServer,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';

export interface TenantContext {
  control: Kysely<ControlDatabase>;
  registry: TenantRegistry;
  databases: TenantDatabases;
  close(): Promise<void>;
}

/**
 * The control-plane registry and the per-tenant pool cache that every multi-tenant service
 * needs. Tenant aplt databases default to APLT_DB_* (each field falling back to PG_*), commerce
 * databases to PG_*; `overrides` lets a service point a kind at its own server (password-sync's
 * SYNC_DB_*). A registry row that names a server wins over all of them.
 */
export function tenantContextFromEnv(
  overrides: {
    commerce?: PgServer;
    aplt?: PgServer;
    /** Connections per tenant database (default 4); a worker running jobs side by side needs more. */
    poolMax?: number;
  } = {},
  source: Record<string, string | undefined> = process.env,
): TenantContext {
  const e = loadEnv({ ...pgEnv, ...apltDbEnv }, source);
  const server = pgAddressFromEnv(e);
  const defaults = tenantServersFromEnv(e);
  const control = createPgDb<ControlDatabase>({ ...server, database: e.CONTROL_DB }, { max: 2 });
  const databases = new TenantDatabases(
    {
      commerce: overrides.commerce ?? defaults.commerce,
      aplt: overrides.aplt ?? defaults.aplt,
    },
    overrides.poolMax ? { poolMax: overrides.poolMax } : {},
  );
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

export async function pingPg<DB>(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
