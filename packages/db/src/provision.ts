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

export async function ensureMysqlDatabase<DB>(db: Kysely<DB>, name: string): Promise<void> {
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

/** A server named on the command line or in the environment: `host:port`, `[v6]:port` or `host`. */
export interface PgPlacement {
  host: string;
  port: number;
}

/**
 * Parses `host:port` (`--pg` of `pnpm tenant:add`, FLEET_PG_SECOND). The port defaults to 5432;
 * anything that is not a plain host name or address is refused, so a typo never becomes a
 * registry row that every service then tries to connect to.
 */
export function parsePgPlacement(raw: string): PgPlacement {
  const text = raw.trim();
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9][A-Za-z0-9.-]{0,252}))(?::(\d{1,5}))?$/.exec(text);
  const port = m?.[3] === undefined ? 5432 : Number(m[3]);
  // A bare number is a port someone meant for 127.0.0.1, not a host: refused, not guessed.
  if (!m || port < 1 || port > 65535 || /^[0-9]+$/.test(m[2] ?? ''))
    throw new Error(
      `Invalid PostgreSQL server ${JSON.stringify(raw)}: expected host:port, e.g. 127.0.0.1:5433`,
    );
  return { host: (m[1] ?? m[2]) as string, port };
}

const sameServer = (a: PgServer, b: PgServer) => a.host === b.host && a.port === b.port;
const describeServer = (s: PgServer) => `${s.host}:${s.port}`;

/**
 * Creates (or brings up to date) a tenant's two databases and registers the tenant: the one
 * command behind `pnpm tenant:add`. Safe to repeat. `placement` puts both databases on that
 * server and records it in the registry row, where every service and worker reads it; without
 * it they go to the default servers and the row names none. A tenant already registered stays
 * where it is: asking for another server is refused (moving is a dump and restore, see
 * docs/deploy.md), so a repeated command never points a tenant at empty databases.
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
  opts: {
    databasePrefix?: string;
    templates?: { commerce?: string; aplt?: string };
    placement?: PgPlacement;
  } = {},
): Promise<void> {
  const names = tenantDatabaseNames(tenant.id, opts.databasePrefix);
  const defaults = serversOf(server);
  const existing = await registry.reload().then((all) => all.find((t) => t.id === tenant.id));
  let locations: { commerce: DbLocation; aplt: DbLocation };
  if (existing) {
    locations = { commerce: existing.commerceDb, aplt: existing.apltDb };
    if (opts.placement) {
      for (const kind of ['commerce', 'aplt'] as const) {
        const now = serverOf(locations[kind], defaults[kind]);
        if (!sameServer(now, { ...now, ...opts.placement }))
          throw new Error(
            `Tenant ${tenant.id} already has its ${kind} database on ${describeServer(now)}, not ${describeServer({ ...now, ...opts.placement })}; moving a tenant is a dump and restore (docs/deploy.md)`,
          );
      }
    }
  } else if (opts.placement) {
    const at = { host: opts.placement.host, port: opts.placement.port };
    locations = { commerce: { database: names.commerce, ...at }, aplt: { database: names.aplt, ...at } };
  } else {
    // The registry names no server: every reader finds the databases through its own defaults
    // (APLT_DB_* / PG_*), which must be the ones this ran with.
    locations = { commerce: { database: names.commerce }, aplt: { database: names.aplt } };
  }
  const commerceServer = serverOf(locations.commerce, defaults.commerce);
  const apltServer = serverOf(locations.aplt, defaults.aplt);
  await ensurePgDatabase(commerceServer, locations.commerce.database, opts.templates?.commerce);
  await ensurePgDatabase(apltServer, locations.aplt.database, opts.templates?.aplt);
  await migrateDatabase(commerceServer, locations.commerce.database, 'commerce');
  await migrateDatabase(apltServer, locations.aplt.database, 'aplt');
  await registry.add({ ...tenant, commerceDb: locations.commerce, apltDb: locations.aplt });
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
