/**
 * `pnpm migrate`: brings every database of the fleet to the latest schema. Control plane, access
 * and portal first, then each tenant's commerce and aplt databases, four tenants at a time.
 */
import {
  apltDbEnv,
  env,
  loadEnv,
  mysqlEnv,
  pgAddressFromEnv,
  pgEnv,
  tenantServersFromEnv,
} from '@aplt/config';
import { createMysqlDb, createPgDb } from './connection';
import { migrateToLatest } from './migrate';
import { ensureMysqlDatabase, ensurePgDatabase, migrateTenantDatabases } from './provision';
import { TenantRegistry } from './registry';
import type { ControlDatabase } from './types';

const TENANT_MIGRATION_LANES = 4;

export async function migrateFleet(
  log: (line: string) => void = console.log,
  source: Record<string, string | undefined> = process.env,
): Promise<void> {
  const e = loadEnv({ ...pgEnv, ...apltDbEnv, ...mysqlEnv, PG_DB: env.str('access') }, source);
  const server = pgAddressFromEnv(e);

  for (const [kind, database] of [
    ['control', e.CONTROL_DB],
    ['access', e.PG_DB],
  ] as const) {
    await ensurePgDatabase(server, database);
    const db = createPgDb({ ...server, database }, { max: 1 });
    try {
      const applied = await migrateToLatest(db, kind);
      log(`${kind} (${database}): ${applied.length ? applied.join(', ') : 'up to date'}`);
    } finally {
      await db.destroy();
    }
  }

  const mysqlServer = {
    host: e.MYSQL_HOST,
    port: e.MYSQL_PORT,
    user: e.MYSQL_USER,
    password: e.MYSQL_PASSWORD,
  };
  const bootstrap = createMysqlDb<unknown>({ ...mysqlServer, database: 'mysql' }, { max: 1 });
  try {
    await ensureMysqlDatabase(bootstrap, e.PORTAL_DB);
  } finally {
    await bootstrap.destroy();
  }
  const portal = createMysqlDb({ ...mysqlServer, database: e.PORTAL_DB }, { max: 1 });
  try {
    const applied = await migrateToLatest(portal, 'portal');
    log(`portal (${e.PORTAL_DB}): ${applied.length ? applied.join(', ') : 'up to date'}`);
  } finally {
    await portal.destroy();
  }

  const control = createPgDb<ControlDatabase>({ ...server, database: e.CONTROL_DB }, { max: 2 });
  try {
    const registry = new TenantRegistry(control);
    // Tenants are independent databases: a few at a time, so a restart on a fleet that is up to
    // date pays a handful of round trips per tenant once, not once per tenant in a row.
    const tenants = await registry.list();
    const servers = tenantServersFromEnv(e);
    let next = 0;
    let failed = false;
    const lane = async () => {
      while (!failed && next < tenants.length) {
        const tenant = tenants[next++]!;
        try {
          await migrateTenantDatabases(tenant, servers);
        } catch (err) {
          failed = true; // the other lanes finish the tenant they are on and take no further one
          throw new Error(`tenant ${tenant.id}: ${err instanceof Error ? err.message : String(err)}`, {
            cause: err,
          });
        }
        log(`tenant ${tenant.id}: commerce + aplt up to date`);
      }
    };
    const lanes = await Promise.allSettled(
      Array.from({ length: Math.min(TENANT_MIGRATION_LANES, tenants.length) }, lane),
    );
    const failure = lanes.find((l) => l.status === 'rejected');
    if (failure) throw failure.reason;
  } finally {
    await control.destroy();
  }
}
