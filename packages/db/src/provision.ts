import { type Kysely, sql } from 'kysely';
import { createPgDb, type PgServer } from './connection';
import { type DatabaseKind, migrateToLatest } from './migrate';
import type { DbLocation, TenantKind, TenantRecord, TenantRegistry } from './registry';

const identifier = /^[a-z][a-z0-9_]{0,62}$/;

function assertIdentifier(name: string): void {
  if (!identifier.test(name)) throw new Error(`Invalid database name: ${name}`);
}

/** Creates `name` on the server unless it exists; `template` clones a migrated template database. */
export async function ensurePgDatabase(server: PgServer, name: string, template?: string): Promise<boolean> {
  assertIdentifier(name);
  const admin = createPgDb({ ...server, database: 'postgres' }, { max: 1 });
  try {
    const exists = await sql<{ n: number }>`select 1 as n from pg_database where datname = ${name}`.execute(
      admin,
    );
    if (exists.rows.length > 0) return false;
    const tpl = template ? sql` TEMPLATE ${sql.id(template)}` : sql``;
    try {
      await sql`CREATE DATABASE ${sql.id(name)}${tpl}`.execute(admin);
    } catch (err) {
      // Another process created it between our check and our CREATE: that is the same outcome.
      if ((err as { code?: string }).code !== '42P04') throw err;
      return false;
    }
    return true;
  } finally {
    await admin.destroy();
  }
}

export async function dropPgDatabase(server: PgServer, name: string): Promise<void> {
  assertIdentifier(name);
  const admin = createPgDb({ ...server, database: 'postgres' }, { max: 1 });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin);
  } finally {
    await admin.destroy();
  }
}

export async function ensureMysqlDatabase(db: Kysely<any>, name: string): Promise<void> {
  assertIdentifier(name);
  await sql`CREATE DATABASE IF NOT EXISTS ${sql.id(name)} CHARACTER SET utf8mb4`.execute(db);
}

export function tenantDatabaseNames(tenantId: string, prefix = '') {
  return { commerce: `${prefix}commerce_${tenantId}`, aplt: `${prefix}aplt_${tenantId}` };
}

async function migrateDatabase(server: PgServer, database: string, kind: DatabaseKind): Promise<void> {
  const db = createPgDb({ ...server, database }, { max: 1 });
  try {
    await migrateToLatest(db, kind);
  } finally {
    await db.destroy();
  }
}

/**
 * Creates (or brings up to date) a tenant's two databases and registers the tenant: the one
 * command behind `pnpm tenant:add`. Safe to repeat.
 */
export async function provisionTenant(
  registry: TenantRegistry,
  server: PgServer | TenantServers,
  tenant: {
    id: string;
    kind: TenantKind;
    name: string;
    hosts: string[];
    adminBaseUrl?: string | null;
    storeBaseUrl?: string | null;
  },
  opts: { databasePrefix?: string; templates?: { commerce?: string; aplt?: string } } = {},
): Promise<void> {
  const names = tenantDatabaseNames(tenant.id, opts.databasePrefix);
  const servers = serversOf(server);
  await ensurePgDatabase(servers.commerce, names.commerce, opts.templates?.commerce);
  await ensurePgDatabase(servers.aplt, names.aplt, opts.templates?.aplt);
  await migrateDatabase(servers.commerce, names.commerce, 'commerce');
  await migrateDatabase(servers.aplt, names.aplt, 'aplt');
  // The registry names no server: every reader finds the databases through its own defaults
  // (APLT_DB_* / PG_*), which must be the ones this ran with.
  await registry.add({
    ...tenant,
    commerceDb: { database: names.commerce },
    apltDb: { database: names.aplt },
  });
}

function serverOf(loc: DbLocation, fallback: PgServer): PgServer {
  return {
    host: loc.host ?? fallback.host,
    port: loc.port ?? fallback.port,
    user: loc.user ?? fallback.user,
    password: loc.password ?? fallback.password,
  };
}

/** The default server per database kind; one server for both where a single one is given. */
export interface TenantServers {
  commerce: PgServer;
  aplt: PgServer;
}

const serversOf = (s: PgServer | TenantServers): TenantServers =>
  'commerce' in s ? s : { commerce: s, aplt: s };

/** Creates (if missing) and migrates the two databases a registered tenant names, wherever they live. */
export async function migrateTenantDatabases(
  tenant: TenantRecord,
  fallback: PgServer | TenantServers,
): Promise<void> {
  const defaults = serversOf(fallback);
  for (const [kind, loc] of [
    ['commerce', tenant.commerceDb],
    ['aplt', tenant.apltDb],
  ] as const) {
    const server = serverOf(loc, defaults[kind]);
    await ensurePgDatabase(server, loc.database);
    await migrateDatabase(server, loc.database, kind);
  }
}
