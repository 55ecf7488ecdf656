import { ConfigError } from '@aplt/config';
import {
  type ApltDatabase,
  type CommerceDatabase,
  createPgDb,
  dropPgDatabase,
  type Kysely,
  migrateTenantDatabases,
  provisionTenant,
  sql,
  TenantRegistry,
} from '@aplt/db';
import { createTestFleet, type TestFleet, testServers, uniqueName } from '@aplt/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantContextFromEnv } from '../src/tenant-context';

const userOf = async <DB>(db: Kysely<DB>) =>
  (await sql<{ u: string }>`select current_user as u`.execute(db)).rows[0]!.u;

/**
 * APLT_DB_* (spec 1) is the default server of the tenants' aplt databases: services read them
 * there and `pnpm tenant:add` / `pnpm migrate` create and migrate them there. The test tells
 * the two servers apart by the role they log in as (one local server, two identities).
 */
describe('APLT_DB_*: where tenant aplt databases live when the registry names no server', () => {
  let fleet: TestFleet;
  let admin: Kysely<unknown>;
  const role = uniqueName('aplt_role').toLowerCase();
  const prefix = `${uniqueName('p').toLowerCase()}_`;
  const created: string[] = [];

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    admin = createPgDb<unknown>({ ...testServers().pg, database: 'postgres' }, { max: 1 });
    await sql.raw(`CREATE ROLE "${role}" LOGIN CREATEDB`).execute(admin);
  });
  afterAll(async () => {
    for (const name of created) await dropPgDatabase(testServers().pg, name).catch(() => {});
    await sql
      .raw(`DROP ROLE IF EXISTS "${role}"`)
      .execute(admin)
      .catch(() => {});
    await admin?.destroy();
    await fleet?.cleanup();
  });

  it('services open tenant aplt pools on APLT_DB_*, commerce pools on PG_*; unset, both on PG_*', async () => {
    const ctx = tenantContextFromEnv({}, { ...fleet.env, APLT_DB_USER: role });
    try {
      const acme = (await ctx.registry.get('acme'))!;
      expect(await userOf(ctx.databases.aplt<ApltDatabase>(acme))).toBe(role);
      expect(await userOf(ctx.databases.commerce<CommerceDatabase>(acme))).toBe(testServers().pg.user);
    } finally {
      await ctx.close();
    }
    const plain = tenantContextFromEnv({}, fleet.env);
    try {
      const acme = (await plain.registry.get('acme'))!;
      expect(await userOf(plain.databases.aplt<ApltDatabase>(acme))).toBe(testServers().pg.user);
    } finally {
      await plain.close();
    }
  });

  it('a bad APLT_DB_PORT stops the service with the variable named', () => {
    expect(() => tenantContextFromEnv({}, { ...fleet.env, APLT_DB_PORT: 'x' })).toThrow(ConfigError);
    expect(() => tenantContextFromEnv({}, { ...fleet.env, APLT_DB_PORT: 'x' })).toThrow(/APLT_DB_PORT/);
  });

  it('tenant provisioning and fleet migration create the aplt database on the APLT_DB_* server', async () => {
    const pg = testServers().pg;
    const servers = { commerce: pg, aplt: { ...pg, user: role } };
    const registry = new TenantRegistry(fleet.control.db, 0);
    created.push(`${prefix}commerce_beta`, `${prefix}aplt_beta`);
    await provisionTenant(
      registry,
      servers,
      { id: 'beta', kind: 'tenant', name: 'Beta', hosts: ['beta.localhost'] },
      { databasePrefix: prefix },
    );
    const owners = await sql<{ datname: string; owner: string }>`
      select datname, pg_get_userbyid(datdba) as owner from pg_database
       where datname in (${prefix + 'commerce_beta'}, ${prefix + 'aplt_beta'}) order by datname`.execute(
      admin,
    );
    expect(owners.rows).toEqual([
      { datname: `${prefix}aplt_beta`, owner: role },
      { datname: `${prefix}commerce_beta`, owner: pg.user },
    ]);
    // The registry names no server: readers with the same APLT_DB_* find it, migrate is a no-op.
    const beta = (await registry.get('beta'))!;
    expect(beta.apltDb.host).toBeUndefined();
    await migrateTenantDatabases(beta, servers);
    const ctx = tenantContextFromEnv({}, { ...fleet.env, APLT_DB_USER: role });
    try {
      const n = await sql<{ n: number }>`select count(*)::int as n from aplt_settings`.execute(
        ctx.databases.aplt<ApltDatabase>(beta),
      );
      expect(n.rows[0]!.n).toBeGreaterThanOrEqual(0);
      expect(await userOf(ctx.databases.aplt<ApltDatabase>(beta))).toBe(role);
    } finally {
      await ctx.close();
      await registry.remove('beta');
    }
  });
});
