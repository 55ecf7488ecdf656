import { createPgDb, type Kysely, sql, tenantDatabaseNames } from '@aplt/db';
import { testServers } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSeedMarkers, type SeedMarker } from '../fleet/seed-markers';
import { seedSteps } from '../fleet/seeds';
import { demoAdmin } from '../fleet/seeds/demo-tenants';
import { type FleetFixture, startFleetFixture } from './fleet-fixture';

/**
 * Issue #17 "Start-up": the start command seeds the demo data once per database. A second start
 * on a fleet that has its data runs no seed step (markers unchanged, no new connector runs), a
 * tenant added later gets its own seed only, and FLEET_SEED=always re-runs every step idempotently.
 */
describe('the demo seed runs once; a restart skips it', () => {
  let f: FleetFixture;
  let control: Kysely<unknown>;
  const dbs = new Map<string, Kysely<unknown>>();
  const db = (name: string) => {
    if (!dbs.has(name)) dbs.set(name, createPgDb({ ...testServers().pg, database: name }, { max: 1 }));
    return dbs.get(name)!;
  };
  const aplt = (tenant: string) => db(tenantDatabaseNames(tenant, f.prefix).aplt);
  const commerce = (tenant: string) => db(tenantDatabaseNames(tenant, f.prefix).commerce);

  /** Connector runs the seed started in the master (one per supplier and feed kind per seeding). */
  const seedConnectorRuns = async () =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_connector_sync
        WHERE triggered_by = 'seed'`.execute(aplt('master'))
    ).rows[0]!.n;
  const commerceCounts = async (tenant: string) =>
    (
      await sql<{ products: number; variants: number; prices: number }>`SELECT
        (SELECT count(*)::int FROM product) AS products,
        (SELECT count(*)::int FROM product_variant) AS variants,
        (SELECT count(*)::int FROM price) AS prices`.execute(commerce(tenant))
    ).rows[0]!;
  const markers = async () => listSeedMarkers(control);
  const key = (m: SeedMarker) => `${m.step}@${m.scope}`;
  /** The fleet log of the latest start only. */
  let mark = 0;
  const startLog = () => f.output.slice(mark);
  const ranSteps = () =>
    startLog()
      .map((l) => /^seed: running (.+) \(.*\)$/.exec(l)?.[1])
      .filter((s): s is string => s !== undefined);

  const expectServing = async (tenants: string[]) => {
    for (const tenant of tenants) {
      for (const service of ['catalog', 'documents', 'auth']) {
        const res = await f.via(`${tenant}.localhost`, `/-/${service}/readyz`);
        expect(res.status, `${service} on ${tenant}: ${res.text()}`).toBe(200);
      }
      const login = await f.via(`${tenant}.localhost`, '/auth/user/emailpass', {
        method: 'POST',
        body: { email: demoAdmin.email, password: demoAdmin.password },
      });
      expect(login.status, `${tenant}: ${login.text()}`).toBe(200);
    }
    expect((await f.via('access.localhost', '/readyz')).status).toBe(200);
    expect((await f.via('portal.localhost', '/readyz')).status).toBe(200);
  };

  let first: { markers: SeedMarker[]; runs: number; acme: Awaited<ReturnType<typeof commerceCounts>> };

  beforeAll(async () => {
    f = await startFleetFixture('master,pim,acme');
    control = db(`${f.prefix}control`);
    first = { markers: await markers(), runs: await seedConnectorRuns(), acme: await commerceCounts('acme') };
  }, 600_000);

  afterAll(async () => {
    await Promise.allSettled([...dbs.values()].map((d) => d.destroy()));
    await f?.stop();
  }, 120_000);

  it('the first start seeds every step and marks it per tenant or for the fleet', () => {
    expect(ranSteps()).toEqual(seedSteps.map((s) => s.name));
    const keys = first.markers.map(key).sort();
    const expected = seedSteps
      .flatMap((s) =>
        s.scope === 'fleet' ? [`${s.name}@*`] : ['master', 'pim', 'acme'].map((t) => `${s.name}@${t}`),
      )
      .sort();
    expect(keys).toEqual(expected);
    expect(first.markers.every((m) => m.version === seedSteps.find((s) => s.name === m.step)!.version)).toBe(
      true,
    );
    expect(first.runs).toBe(32);
    expect(first.acme.products).toBeGreaterThan(0);
  });

  it('a second start on the same databases runs no seed step and keeps the data', async () => {
    mark = f.output.length;
    await f.restart();
    expect(ranSteps()).toEqual([]);
    expect(startLog()).toContain(
      `seed: already done, nothing to seed (${seedSteps.length} steps marked in the control DB; FLEET_SEED=always re-runs them)`,
    );
    expect(await markers()).toEqual(first.markers);
    expect(await seedConnectorRuns()).toBe(first.runs);
    expect(await commerceCounts('acme')).toEqual(first.acme);
    await expectServing(['master', 'pim', 'acme']);
    // The banner still lists the demo logins although their steps did not run.
    expect(f.fleet.notes.some((n) => n.startsWith('portal http://portal.'))).toBe(true);
    expect(f.fleet.notes.some((n) => n.startsWith('dev project preview: rebuild '))).toBe(true);
  });

  it('a tenant added later gets its own seed; the others are left alone', async () => {
    mark = f.output.length;
    await f.restart({ FLEET_TENANTS: 'master,pim,acme,globex' });
    const tenantSteps = seedSteps.filter((s) => s.scope === 'tenants');
    expect(ranSteps()).toEqual(tenantSteps.map((s) => s.name));
    for (const s of tenantSteps) expect(startLog()).toContain(`seed: running ${s.name} (globex)`);
    const now = await markers();
    const before = new Map(first.markers.map((m) => [key(m), m]));
    for (const m of now) {
      if (m.scope === 'globex') continue;
      expect(m, key(m)).toEqual(before.get(key(m)));
    }
    expect(
      now
        .filter((m) => m.scope === 'globex')
        .map((m) => m.step)
        .sort(),
    ).toEqual(tenantSteps.map((s) => s.name).sort());
    expect(await seedConnectorRuns()).toBe(first.runs);
    expect(await commerceCounts('globex')).toEqual(first.acme);
    await expectServing(['globex']);
  });

  it('FLEET_SEED=always runs every step again, idempotently', async () => {
    const before = await markers();
    mark = f.output.length;
    await f.restart({ FLEET_TENANTS: 'master,pim,acme,globex', FLEET_SEED: 'always' });
    expect(ranSteps()).toEqual(seedSteps.map((s) => s.name));
    const after = await markers();
    expect(after.map(key)).toEqual(before.map(key));
    const was = new Map(before.map((m) => [key(m), m.doneAt.getTime()]));
    for (const m of after) expect(m.doneAt.getTime(), key(m)).toBeGreaterThan(was.get(key(m))!);
    // Every connector ran once more on the same feeds; the data is the same.
    expect(await seedConnectorRuns()).toBe(2 * first.runs);
    expect(await commerceCounts('acme')).toEqual(first.acme);
    expect(await commerceCounts('globex')).toEqual(first.acme);
    // The one-time rows stay single: one demo dev project, one admin per tenant.
    const projects = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_dev_projects`.execute(
      aplt('acme'),
    );
    expect(projects.rows[0]!.n).toBe(1);
    const admins = await sql<{ n: number }>`SELECT count(*)::int AS n FROM provider_identity
      WHERE entity_id = ${demoAdmin.email}`.execute(commerce('acme'));
    expect(admins.rows[0]!.n).toBe(1);
    await expectServing(['acme', 'globex']);
  });
});
