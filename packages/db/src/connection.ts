import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { createPool as createMysqlPool } from 'mysql2';
import pg from 'pg';

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

export function createPgDb<DB = any>(
  address: PgAddress,
  opts: { max?: number; applicationName?: string } = {},
) {
  const pool = new pg.Pool({
    ...address,
    max: opts.max ?? 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 5_000,
    application_name: opts.applicationName ?? 'aplt',
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  pool.on('error', () => {});
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

export function createMysqlDb<DB = any>(address: MysqlAddress, opts: { max?: number } = {}) {
  const pool = createMysqlPool({
    ...address,
    connectionLimit: opts.max ?? 10,
    timezone: 'Z',
    dateStrings: ['DATE'],
    decimalNumbers: false,
  });
  return new Kysely<DB>({ dialect: new MysqlDialect({ pool }) });
}
