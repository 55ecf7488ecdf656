import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, eventually, fixtures } from './helpers';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

/**
 * A supplier host that sends the first `held` bytes of a fixture feed with its full length, then
 * holds the rest until release() - a slow download the test can stop in the middle, so what a
 * run reports while it works is observed, not raced.
 */
async function startHeldFeed(file: string, held: number) {
  const body = await readFile(file);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.write(body.subarray(0, held));
    void released.then(() => res.end(body.subarray(held)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/products.json`,
    size: body.length,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Holds `statement` (a lock) in a transaction of `db` until the returned function is called. */
async function hold<DB>(db: Kysely<DB>, statement: ReturnType<typeof sql>): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const ready = new Promise<void>((resolve) => (locked = resolve));
  const done = db.transaction().execute(async (trx) => {
    await statement.execute(trx);
    locked();
    await released;
  });
  await ready;
  return async () => {
    release();
    await done;
  };
}

interface RunView {
  status: string;
  percent: number;
  phase: string;
  done: number | null;
  total: number | null;
  unit: string | null;
  progress: string | null;
}

/**
 * Connector, commerce-sync and tenant-update runs report progress a UI can draw while they work:
 * each run is stopped in the middle (a held feed, a held row, a held table), its progress read
 * through the API, then let go and followed to 100 %.
 */
describe('run progress while connector, commerce-sync and tenant-update runs work', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let masterDb: Kysely<ApltDatabase>;
  let acmeDb: Kysely<ApltDatabase>;
  let feed: Awaited<ReturnType<typeof startHeldFeed>>;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }, { id: 'globex' }]);
    redis = await createTestRedis();
    masterDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    acmeDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('acme'))!);
    feed = await startHeldFeed(join(fixtures, '01', 'products.json'), 1000);
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
      VALUES ('01', 'Supplier 01', 'json', ${JSON.stringify({ feeds: { products: feed.url } })}::jsonb)`.execute(
      masterDb,
    );
    const env = {
      ...fleet.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      CATALOG_RUN_WORKERS: 'true',
    };
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(env),
    );
    await app.ready();
    for (const id of ['master', 'acme']) tokens[id] = await adminToken(id);
  }, 60_000);

  afterAll(async () => {
    feed?.release();
    await app?.close();
    await feed?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  const call = async (tenant: string, method: 'GET' | 'POST', url: string, body?: object) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...viaProxy(`${tenant}.localhost`), authorization: `Bearer ${tokens[tenant]}` },
      ...(body ? { payload: body } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };

  /** Polls the run until `until` holds, checking on every read that the percentage never goes back. */
  const follow = async (tenant: string, path: string, until: (r: RunView) => boolean, what: string) => {
    let last = 0;
    return eventually(async () => {
      const res = await call(tenant, 'GET', path);
      expect(res.status).toBe(200);
      const run = res.body.run as RunView;
      expect(run.percent, what).toBeGreaterThanOrEqual(last);
      expect(run.percent === 100, what).toBe(run.status === 'succeeded');
      last = run.percent;
      return until(run) ? run : undefined;
    }, what);
  };

  it('a connector run reports the feed bytes it has read, then 100 % when it succeeded', async () => {
    const start = await call('master', 'POST', '/admin/connectors/sync?connector=01_products');
    expect(start.status).toBe(202);
    const path = `/admin/connectors/sync/runs/${start.body.run_id}`;
    // The host has sent 1,000 of the feed's bytes and holds the rest: the run is reading.
    const reading = await follow('master', path, (r) => r.phase === 'reading' && r.done === 1000, 'reading');
    expect(reading).toMatchObject({ status: 'running', unit: 'bytes', total: feed.size });
    // 1000 / 2093 of the reading share (85 %).
    expect(reading.percent).toBeGreaterThan(0);
    expect(reading.percent).toBeLessThan(85);
    expect(Number(reading.progress)).toBe(reading.percent);
    // The connector list and the run list show the same run working.
    const list = await call('master', 'GET', '/admin/connectors/sync');
    expect(list.body.connectors.find((c: Item) => c.name === '01_products')).toMatchObject({
      status: 'running',
      last_run: { id: start.body.run_id, phase: 'reading', done: 1000 },
    });
    const runs = await call(
      'master',
      'GET',
      '/admin/connectors/sync/runs?connector=01_products&status=running',
    );
    expect(runs.body).toMatchObject({ count: 1, data: [{ id: start.body.run_id, phase: 'reading' }] });
    expect((await call('master', 'GET', '/admin/connectors/sync/runs?connector=99_products')).status).toBe(
      404,
    );

    feed.release();
    const done = await follow('master', path, (r) => r.status !== 'running' && r.status !== 'queued', 'done');
    expect(done).toMatchObject({
      status: 'succeeded',
      phase: 'succeeded',
      percent: 100,
      progress: '100.00',
      done: feed.size,
      total: feed.size,
      unit: 'bytes',
    });
    const products = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(masterDb);
    expect(products.rows[0]!.n).toBeGreaterThan(0);
    expect((await call('master', 'GET', '/admin/connectors/sync/runs?limit=1')).body.data[0]).toMatchObject({
      id: start.body.run_id,
      percent: 100,
    });
  });

  it('a commerce sync reports products written of the sellable total, chunk by chunk', async () => {
    // 2,500 sellable products: two chunks of the sync (2,000 per chunk).
    await sql`INSERT INTO aplt_suppliers (code, name) VALUES ('01', 'Supplier 01')`.execute(acmeDb);
    await sql`INSERT INTO aplt_products (sku, supplier_code, name_nl, retail_price_100)
      SELECT 'P' || lpad(i::text, 5, '0'), '01', 'Product ' || i, 1.25 FROM generate_series(1, 2500) i`.execute(
      acmeDb,
    );
    const first = await call('acme', 'POST', '/admin/connectors/commerce-sync');
    expect(first.status).toBe(202);
    await follow(
      'acme',
      `/admin/connectors/commerce-sync/runs/${first.body.run_id}`,
      (r) => r.status === 'succeeded',
      'first sync',
    );

    // Hold a product of the second chunk in the shop: the full sync writes the first chunk, then waits.
    const commerce = fleet.tenantDbs.get('acme')!.commerce.db;
    const release = await hold(commerce, sql`SELECT id FROM product WHERE external_id = 'P02400' FOR UPDATE`);
    try {
      const again = await call('acme', 'POST', '/admin/connectors/commerce-sync?full=true');
      expect(again.status).toBe(202);
      const path = `/admin/connectors/commerce-sync/runs/${again.body.run_id}`;
      const half = await follow('acme', path, (r) => r.done === 2000, 'first chunk');
      expect(half).toMatchObject({ status: 'running', phase: 'writing', unit: 'products', total: 2500 });
      expect(half.percent).toBe(76); // 2000 / 2500 of 95 %
      // The state route shows the same run.
      expect((await call('acme', 'GET', '/admin/connectors/commerce-sync')).body).toMatchObject({
        state: 'running',
        last_run: { id: again.body.run_id, done: 2000, percent: 76 },
      });
      await release();
      const done = await follow('acme', path, (r) => r.status === 'succeeded', 'full sync');
      expect(done).toMatchObject({ percent: 100, phase: 'succeeded', done: 2500, total: 2500 });
    } finally {
      await release().catch(() => {});
    }
    // Another tenant's run id is not this tenant's.
    expect(
      (await call('master', 'GET', `/admin/connectors/commerce-sync/runs/${first.body.run_id}`)).status,
    ).toBe(404);
  });

  it('a tenant update reports catalog rows copied of the rows it copies', async () => {
    await sql`INSERT INTO aplt_techniques (code, supplier_code, name_nl) VALUES ('01-TAMPO', '01', 'Tampondruk')`.execute(
      masterDb,
    );
    await sql`INSERT INTO aplt_technique_pricing (technique_id, min_quantity, price_per_unit)
      SELECT id, 1, 0.5 FROM aplt_techniques WHERE code = '01-TAMPO'`.execute(masterDb);
    const counted = await sql<{ n: number }>`SELECT
      (SELECT count(*) FROM aplt_suppliers) + (SELECT count(*) FROM aplt_products) + (SELECT count(*) FROM aplt_product_variants)
      + (SELECT count(*) FROM aplt_stock) + (SELECT count(*) FROM aplt_product_prices) + (SELECT count(*) FROM aplt_category_mappings)
      + (SELECT count(*) FROM aplt_categories) + (SELECT count(*) FROM aplt_colors) + (SELECT count(*) FROM aplt_discount_groups)
      + (SELECT count(*) FROM aplt_techniques) + (SELECT count(*) FROM aplt_technique_pricing) + (SELECT count(*) FROM aplt_opstartkosten)
      + (SELECT count(*) FROM aplt_print_positions) + (SELECT count(*) FROM aplt_product_techniques) AS n`.execute(
      masterDb,
    );
    const total = Number(counted.rows[0]!.n);
    const before = await sql<{ n: number }>`SELECT
      (SELECT count(*) FROM aplt_suppliers) + (SELECT count(*) FROM aplt_discount_groups) + (SELECT count(*) FROM aplt_colors)
      + (SELECT count(*) FROM aplt_categories) + (SELECT count(*) FROM aplt_products) + (SELECT count(*) FROM aplt_product_variants)
      + (SELECT count(*) FROM aplt_stock) + (SELECT count(*) FROM aplt_product_prices) + (SELECT count(*) FROM aplt_category_mappings)
      AS n`.execute(masterDb);
    // The copy into globex stops at its techniques table, after everything listed before it.
    const globex = fleet.tenantDbs.get('globex')!.aplt.db;
    const release = await hold(globex, sql`LOCK TABLE aplt_techniques IN EXCLUSIVE MODE`);
    try {
      const start = await call('master', 'POST', '/admin/tenant-update', { tenant_ids: ['globex'] });
      expect(start.status).toBe(202);
      const path = `/admin/tenant-update/runs/${start.body.run_id}`;
      const stopped = await follow(
        'master',
        path,
        (r) => r.done === Number(before.rows[0]!.n),
        'copy up to techniques',
      );
      expect(stopped).toMatchObject({ status: 'running', phase: 'writing', unit: 'rows', total });
      expect(stopped.percent).toBeGreaterThan(0);
      expect(stopped.percent).toBeLessThan(99);
      await release();
      const done = await follow('master', path, (r) => r.status === 'succeeded', 'tenant update');
      expect(done).toMatchObject({ percent: 100, done: total, total });
    } finally {
      await release().catch(() => {});
    }
    expect((await call('master', 'GET', '/admin/tenant-update/runs/999999')).status).toBe(404);
  });
});
