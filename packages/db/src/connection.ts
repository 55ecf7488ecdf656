import { loadEnv, pgPoolEnv } from '@aplt/config';
import { Kysely, MysqlDialect, PostgresDialect, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { PortalDatabase } from './types';

/** A Postgres server; a database name turns it into a PgAddress. */
export interface PgServer {
  host: string;
  port: number;
  user: string;
  password?: string | undefined;
}
export interface PgAddress extends PgServer {
  database: string;
}
export interface MysqlAddress {
  host: string;
  port: number;
  user: string;
  password?: string | undefined;
  database: string;
}

// Money is numeric and must stay a decimal string; int8 ids and counts fit a JS number;
// a DATE is a calendar day and must not be shifted through the process time zone.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

let connectTimeoutMs: number | undefined;

export function createPgDb<DB = unknown>(
  address: PgAddress,
  opts: { max?: number; applicationName?: string } = {},
) {
  connectTimeoutMs ??= loadEnv(pgPoolEnv).PG_CONNECT_TIMEOUT_MS;
  const pool = new pg.Pool({
    ...address,
    max: opts.max ?? 10,
    idleTimeoutMillis: 10_000,
    // A stopped server refuses at once; an unreachable one fails a request after this (a 503),
    // instead of holding it; the wait for a free client counts too. Not lower than 5 s: on a
    // loaded two-core machine a healthy local server took over 3 s to accept a connection.
    connectionTimeoutMillis: connectTimeoutMs,
    // A server that vanished without closing its sockets is noticed by the kernel, not never.
    keepAlive: true,
    application_name: opts.applicationName ?? 'aplt',
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  pool.on('error', () => {});
  // A client that is checked out (a transaction between statements, a held connection) has no
  // pool listener: when its server stops it would emit 'error' unheard and crash the process,
  // taking every tenant of the service down with it. Its next query fails instead (a 503), and
  // the pool drops it on release since it is no longer queryable.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** A client of the pool, for driver features Kysely does not wrap (see withPgClient). */
export type PgClient = pg.PoolClient;

const pools = new WeakMap<object, pg.Pool>();

/**
 * Runs `fn` with one client of the pool behind `db` (made by createPgDb) and a Kysely instance
 * bound to that client alone, so raw driver features that Kysely does not wrap (COPY streams)
 * can share a transaction with ordinary queries: `conn.transaction()` runs on the same client.
 */
export async function withPgClient<DB, T>(
  db: Kysely<DB>,
  fn: (client: pg.PoolClient, conn: Kysely<DB>) => Promise<T>,
): Promise<T> {
  const pool = pools.get(db);
  if (!pool) throw new Error('withPgClient needs a database made by createPgDb');
  const client = await pool.connect();
  const conn = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: {
        // pg's query overloads are wider than the two Kysely calls; the client serves both.
        connect: async () => ({
          query: client.query.bind(client) as PostgresPoolClient['query'],
          release: () => {},
        }),
        end: async () => {},
      },
    }),
  });
  let failed = false;
  try {
    return await fn(client, conn);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A client that failed mid-COPY may be in an unknown protocol state: drop it, do not reuse it.
    client.release(failed);
  }
}

// MariaDB holds one kind of database, the portal's; an admin connection (to `mysql`) names unknown.
export function createMysqlDb<DB = PortalDatabase>(address: MysqlAddress, opts: { max?: number } = {}) {
  // The driver loads with the first query: most services never open MariaDB, and mysql2 is about
  // 4 MB of resident memory in every process that imports this package.
  const pool = async () => {
    const { createPool } = await import('mysql2');
    return createPool({
      ...address,
      connectionLimit: opts.max ?? 10,
      timezone: 'Z',
      dateStrings: ['DATE'],
      decimalNumbers: false,
    });
  };
  return new Kysely<DB>({ dialect: new MysqlDialect({ pool }) });
}
