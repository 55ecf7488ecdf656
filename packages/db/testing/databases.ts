import { randomBytes } from 'node:crypto';
import {
  type AccessDatabase,
  type ApltDatabase,
  type CommerceDatabase,
  type ControlDatabase,
  createMysqlDb,
  createPgDb,
  type DatabaseKind,
  dropPgDatabase,
  ensureMysqlDatabase,
  ensurePgDatabase,
  type Kysely,
  migrateToLatest,
  migrationFingerprint,
  type PgAddress,
  type PortalDatabase,
  sql,
} from '../src';
import { testRunId, testServers } from './servers';

export type PgKind = Exclude<DatabaseKind, 'portal'>;

/** The generated tables of each kind of Postgres database. */
export interface PgKindTables {
  control: ControlDatabase;
  access: AccessDatabase;
  commerce: CommerceDatabase;
  aplt: ApltDatabase;
}

/** Template databases are keyed by the migrations' content, so a changed migration gets a new one. */
export function templateName(kind: PgKind): string {
  return `tpl_${kind}_${migrationFingerprint(kind)}`;
}

export function uniqueName(label: string): string {
  return `${testRunId()}_${label}_${randomBytes(3).toString('hex')}`.slice(0, 63);
}

/** `DB` is the database's tables, as createTestPgDatabase gives them (PgKindTables). */
export interface TestPgDatabase<DB> {
  name: string;
  address: PgAddress;
  db: Kysely<DB>;
  drop(): Promise<void>;
}

async function cloneWithRetry(server: TestServerPg, name: string, template: string): Promise<void> {
  // Cloning fails while another session is still connected to the template; that lasts moments.
  for (let attempt = 0; ; attempt++) {
    try {
      await ensurePgDatabase(server, name, template);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + attempt * 50));
    }
  }
}
type TestServerPg = ReturnType<typeof testServers>['pg'];

/** A fresh, migrated database of `kind`, cloned from the run's template; drop() removes it. */
export async function createTestPgDatabase<K extends PgKind>(
  kind: K,
  label: string = kind,
): Promise<TestPgDatabase<PgKindTables[K]>> {
  const { pg } = testServers();
  const name = uniqueName(label);
  await cloneWithRetry(pg, name, templateName(kind));
  const address = { ...pg, database: name };
  const db = createPgDb<PgKindTables[K]>(address, { max: 5, applicationName: 'test' });
  return {
    name,
    address,
    db,
    async drop() {
      await db.destroy();
      await dropPgDatabase(pg, name);
    },
  };
}

export interface TestMysqlDatabase {
  name: string;
  db: Kysely<PortalDatabase>;
  drop(): Promise<void>;
}

export async function createTestMysqlDatabase(): Promise<TestMysqlDatabase> {
  const { mysql } = testServers();
  const name = uniqueName('portal');
  const admin = createMysqlDb<unknown>({ ...mysql, database: 'mysql' }, { max: 1 });
  try {
    await ensureMysqlDatabase(admin, name);
  } finally {
    await admin.destroy();
  }
  const db = createMysqlDb<PortalDatabase>({ ...mysql, database: name }, { max: 5 });
  await migrateToLatest(db, 'portal');
  return {
    name,
    db,
    async drop() {
      await db.destroy();
      const a = createMysqlDb<unknown>({ ...mysql, database: 'mysql' }, { max: 1 });
      try {
        await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(a);
      } finally {
        await a.destroy();
      }
    },
  };
}

/**
 * Drops every database of a fleet started with `FLEET_DB_PREFIX=prefix`: its Postgres databases
 * (control, access, each tenant's) by the prefix, and its portal database on MariaDB.
 */
export async function dropFleetDatabases(
  prefix: string,
  servers: Pick<ReturnType<typeof testServers>, 'pg' | 'mysql'> = testServers(),
): Promise<void> {
  const { pg, mysql } = servers;
  const admin = createPgDb<unknown>({ ...pg, database: 'postgres' }, { max: 1 });
  try {
    const dbs = await sql<{
      datname: string;
    }>`select datname from pg_database where datname like ${`${prefix}%`}`.execute(admin);
    for (const row of dbs.rows) await dropPgDatabase(pg, row.datname);
  } finally {
    await admin.destroy();
  }
  const my = createMysqlDb<unknown>({ ...mysql, database: 'mysql' }, { max: 1 });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(`${prefix}portal`)}`.execute(my);
  } finally {
    await my.destroy();
  }
}
