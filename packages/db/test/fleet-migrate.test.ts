import { freePort } from '@aplt/proxy';
import { migrateFleet, sql } from '@aplt/db';
import {
  createTestFleet,
  createTestMysqlDatabase,
  createTestPgDatabase,
  type TestFleet,
  type TestMysqlDatabase,
  type TestPgDatabase,
  testServers,
} from '../testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// migrateFleet checks the tenants four at a time (fleet-migrate.ts): every tenant must still be
// checked exactly once, and a tenant whose database cannot be reached must fail the run by name.
describe('migrateFleet', () => {
  const ids = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
  let fleet: TestFleet;
  let access: TestPgDatabase<unknown>;
  let portal: TestMysqlDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    [fleet, access, portal] = await Promise.all([
      createTestFleet(ids.map((id) => ({ id }))),
      createTestPgDatabase('access') as Promise<TestPgDatabase<unknown>>,
      createTestMysqlDatabase(),
    ]);
    const { mysql } = testServers();
    env = {
      ...fleet.env,
      PG_DB: access.name,
      MYSQL_HOST: mysql.host,
      MYSQL_PORT: String(mysql.port),
      MYSQL_USER: mysql.user,
      ...(mysql.password ? { MYSQL_PASSWORD: mysql.password } : {}),
      PORTAL_DB: portal.name,
    };
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([fleet?.cleanup(), access?.drop(), portal?.drop()]);
  }, 60_000);

  it('checks every tenant once and reports each as up to date', async () => {
    const lines: string[] = [];
    await migrateFleet((line) => lines.push(line), env);
    const tenants = lines.flatMap((l) => /^tenant (\w+): commerce \+ aplt up to date$/.exec(l)?.[1] ?? []);
    expect(tenants.sort()).toEqual(ids);
    expect(lines.filter((l) => l.startsWith('control ') || l.startsWith('access '))).toHaveLength(2);
  });

  it('a tenant whose database server does not answer fails the run by name and is not reported as done', async () => {
    const closed = await freePort();
    await fleet.registry.add({
      id: 'm0_down',
      kind: 'tenant',
      name: 'down',
      hosts: ['m0-down.localhost'],
      commerceDb: { database: 'commerce_m0_down', host: '127.0.0.1', port: closed },
      apltDb: { database: 'aplt_m0_down', host: '127.0.0.1', port: closed },
    });
    try {
      const lines: string[] = [];
      await expect(migrateFleet((line) => lines.push(line), env)).rejects.toThrow(/^tenant m0_down: /);
      // The failing tenant is not reported as done; nothing was created for it on the default server.
      expect(lines.some((l) => l.startsWith('tenant m0_down:'))).toBe(false);
      const made = await sql<{ n: number }>`
        select count(*)::int as n from pg_database where datname in ('commerce_m0_down', 'aplt_m0_down')`.execute(
        fleet.control.db,
      );
      expect(made.rows[0]!.n).toBe(0);
    } finally {
      await fleet.registry.remove('m0_down');
    }
  });
});
