import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createPgDb,
  isDatabaseUnavailable,
  type Kysely,
  parsePgPlacement,
  provisionTenant,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { createTestFleet, type PgCluster, startPgCluster, type TestFleet, testServers } from '../testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tenantAdd = fileURLToPath(new URL('../src/cli/tenant-add.ts', import.meta.url));

const databasesOn = async <DB>(db: Kysely<DB>, like: string) =>
  (
    await sql<{
      datname: string;
    }>`select datname from pg_database where datname like ${like} order by datname`.execute(db)
  ).rows.map((r) => r.datname);

describe('parsePgPlacement', () => {
  it('reads host:port, [v6]:port and a bare host (port 5432)', () => {
    expect(parsePgPlacement('127.0.0.1:5433')).toEqual({ host: '127.0.0.1', port: 5433 });
    expect(parsePgPlacement(' pg-2.internal:6432 ')).toEqual({ host: 'pg-2.internal', port: 6432 });
    expect(parsePgPlacement('[::1]:5433')).toEqual({ host: '::1', port: 5433 });
    expect(parsePgPlacement('db2')).toEqual({ host: 'db2', port: 5432 });
  });

  it.each([
    '',
    '5433',
    'host:0',
    'host:70000',
    'host:5433/db',
    'user@host:5433',
    'a b:1',
    '-x:1',
    'h:1;drop',
  ])('refuses %j', (raw) => {
    expect(() => parsePgPlacement(raw)).toThrow(/expected host:port/);
  });
});

describe('tenants on a second PostgreSQL server', () => {
  let fleet: TestFleet;
  let second: PgCluster;
  let secondAdmin: Kysely<unknown>;
  let registry: TenantRegistry;

  beforeAll(async () => {
    [fleet, second] = await Promise.all([createTestFleet([{ id: 'acme' }]), startPgCluster()]);
    secondAdmin = createPgDb(
      { host: second.host, port: second.port, user: second.user, database: 'postgres' },
      { max: 1 },
    );
    registry = new TenantRegistry(fleet.control.db, 0);
  }, 120_000);

  afterAll(async () => {
    await secondAdmin?.destroy();
    await second?.destroy();
    await fleet?.cleanup();
  }, 60_000);

  it('provisionTenant with a placement creates both databases there and records the server in the registry', async () => {
    const pg = testServers().pg;
    await provisionTenant(
      registry,
      pg,
      { id: 'beta', kind: 'tenant', name: 'Beta', hosts: ['beta.localhost'] },
      { placement: { host: second.host, port: second.port } },
    );
    expect(await databasesOn(secondAdmin, '%_beta')).toEqual(['aplt_beta', 'commerce_beta']);
    const beta = (await registry.get('beta'))!;
    expect(beta.apltDb).toEqual({ database: 'aplt_beta', host: second.host, port: second.port });
    expect(beta.commerceDb).toEqual({ database: 'commerce_beta', host: second.host, port: second.port });

    // A reader with only the first server as its default reaches beta on the second, acme on the first.
    const databases = new TenantDatabases({ commerce: pg, aplt: pg });
    try {
      const portOf = async <DB>(db: Kysely<DB>) =>
        (await sql<{ p: number }>`select current_setting('port')::int as p`.execute(db)).rows[0]!.p;
      expect(await portOf(databases.aplt(beta))).toBe(second.port);
      expect(await portOf(databases.commerce(beta))).toBe(second.port);
      expect(await portOf(databases.aplt((await registry.get('acme'))!))).toBe(pg.port);
    } finally {
      await databases.close();
    }
  });

  it('a repeated provision keeps the tenant where it is; asking for another server is refused', async () => {
    const pg = testServers().pg;
    const before = (await registry.get('beta'))!;
    await provisionTenant(registry, pg, {
      id: 'beta',
      kind: 'tenant',
      name: 'Beta 2',
      hosts: ['beta.localhost'],
    });
    const after = (await registry.get('beta'))!;
    expect(after.name).toBe('Beta 2');
    expect(after.apltDb).toEqual(before.apltDb);
    await expect(
      provisionTenant(
        registry,
        pg,
        { id: 'beta', kind: 'tenant', name: 'Beta', hosts: ['beta.localhost'] },
        { placement: { host: pg.host, port: pg.port } },
      ),
    ).rejects.toThrow(/already has its commerce database on .*dump and restore/);
    expect((await registry.get('beta'))!.apltDb).toEqual(before.apltDb);
  });

  it('pnpm tenant:add <id> --pg host:port places the tenant there (a real process)', async () => {
    const env = { ...process.env, ...fleet.env, LOG_LEVEL: 'warn' };
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        tenantAdd,
        'gamma',
        '--host',
        'gamma.localhost',
        '--pg',
        `${second.host}:${second.port}`,
      ],
      { cwd: repoRoot, env },
    );
    expect(stdout).toContain(`tenant gamma ready on ${second.host}:${second.port}`);
    const gamma = (await registry.get('gamma'))!;
    expect(gamma.hosts).toEqual(['gamma.localhost']);
    expect(gamma.apltDb).toEqual({ database: 'aplt_gamma', host: second.host, port: second.port });
    expect(await databasesOn(secondAdmin, '%_gamma')).toEqual(['aplt_gamma', 'commerce_gamma']);

    const bad = await run(process.execPath, ['--import', 'tsx', tenantAdd, 'delta', '--pg', 'db:99999'], {
      cwd: repoRoot,
      env,
    }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(bad?.code).toBe(2);
    expect(bad?.stderr).toMatch(/Invalid PostgreSQL server "db:99999"/);
    expect(await registry.get('delta')).toBeUndefined();
    // Two tsx start-ups on a loaded machine.
  }, 300_000);

  it('a stopped server is told apart from a failed query (isDatabaseUnavailable), and works again after its restart', async () => {
    const db = createPgDb(
      { host: second.host, port: second.port, user: second.user, database: 'aplt_beta' },
      { max: 2 },
    );
    try {
      const syntax = await sql`select from_nowhere(`.execute(db).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      const missing = await sql`select * from no_such_table`.execute(db).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(missing)).toBe(false);

      // A session open while the server stops, then new connections while it is down.
      const held = sql`select pg_sleep(30)`.execute(db).catch((e: unknown) => e);
      await second.stop();
      expect(isDatabaseUnavailable(await held)).toBe(true);
      const refused = await sql`select 1`.execute(db).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(refused)).toBe(true);

      await second.start();
      const back = await sql<{ n: number }>`select 1 as n`.execute(db);
      expect(back.rows[0]!.n).toBe(1);

      // A tenant being moved (docs/deploy.md): connections refused, then the database renamed away.
      const moving = createPgDb(
        { host: second.host, port: second.port, user: second.user, database: 'commerce_beta' },
        { max: 1 },
      );
      try {
        await sql`ALTER DATABASE commerce_beta ALLOW_CONNECTIONS false`.execute(secondAdmin);
        const closed = await sql`select 1`.execute(moving).catch((e: unknown) => e);
        expect(isDatabaseUnavailable(closed)).toBe(true);
        await sql`ALTER DATABASE commerce_beta RENAME TO commerce_beta_moving`.execute(secondAdmin);
        const gone = await sql`select 1`.execute(moving).catch((e: unknown) => e);
        expect(isDatabaseUnavailable(gone)).toBe(true);
      } finally {
        await moving.destroy();
        await sql`ALTER DATABASE commerce_beta_moving RENAME TO commerce_beta`.execute(secondAdmin);
        await sql`ALTER DATABASE commerce_beta ALLOW_CONNECTIONS true`.execute(secondAdmin);
      }
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
