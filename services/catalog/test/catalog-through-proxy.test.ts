import { type ApltDatabase, type CommerceDatabase, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  createTestRedis,
  httpRequest,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, eventually, seedSuppliersAndCategories, startFeedServer } from './helpers';

/** A row of a raw query whose columns the test states in the query itself. */
type Row = Record<string, unknown>;

describe('catalog through the proxy (Done when of issue 7)', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let proxy: TestProxy;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  let masterToken: string;
  let acmeToken: string;

  const api = (host: string, token: string | undefined, method: string, path: string, body?: object) =>
    proxy.request(`${host}.localhost`, path, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body ? { body } : {}),
    });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }, { id: 'globex' }]);
    redis = await createTestRedis();
    feeds = await startFeedServer();
    const master = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    await seedSuppliersAndCategories(master, (code) => `${feeds.url}/${code}`);
    const env = {
      ...process.env,
      ...fleet.env,
      LOG_LEVEL: 'silent',
      ...testSecrets(),
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      CATALOG_RUN_WORKERS: 'true',
      AI_BASE_URL: '',
    };
    delete (env as Record<string, unknown>).AI_BASE_URL;
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      // The access service signs the assertions with this process's key; the catalog verifies them.
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      catalog: await buildApp(deps, loadConfig(env)),
    });
    masterToken = await adminToken('master');
    acmeToken = await adminToken('acme');
  }, 60_000);

  afterAll(async () => {
    await proxy?.stop();
    await feeds?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  const runConnector = async (name: string) => {
    const res = await api('master', masterToken, 'POST', `/admin/connectors/sync?connector=${name}`);
    expect(res.status, res.text()).toBe(202);
    const { run_id, job_id } = res.json();
    expect(job_id).toBeTruthy();
    return eventually(async () => {
      const r = await api('master', masterToken, 'GET', `/admin/connectors/sync/runs/${run_id}`);
      const body = r.json();
      return ['succeeded', 'failed'].includes(body.run.status) ? body : undefined;
    }, `run of ${name}`);
  };

  it('refuses admin routes without an admin token and lists 32 connectors with one', async () => {
    expect((await api('master', undefined, 'GET', '/admin/connectors/sync')).status).toBe(401);
    const res = await api('master', masterToken, 'GET', '/admin/connectors/sync');
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.count).toBeGreaterThanOrEqual(20);
    expect(body.connectors.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['01_products', '02_stock', '03_prices', '09_printdata']),
    );
    expect(body.connectors.find((c: { name: string }) => c.name === '01_products')).toMatchObject({
      status: 'idle',
      last_run: null,
    });
  });

  it('answers 404 for an unknown connector', async () => {
    const res = await api('master', masterToken, 'POST', '/admin/connectors/sync?connector=08_products');
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ type: 'not_found' });
  });

  it('runs each connector of supplier 01: products, stock, prices and print data fill the master catalog', async () => {
    const products = await runConnector('01_products');
    expect(products.run).toMatchObject({
      status: 'succeeded',
      rows_read: 4,
      rows_inserted: 3,
      rows_rejected: 1,
    });
    expect(products.rejects[0]).toMatchObject({
      key: 'MO1004',
      reason: expect.stringContaining('product_name'),
    });

    const stock = await runConnector('01_stock');
    expect(stock.run).toMatchObject({
      status: 'succeeded',
      rows_read: 6,
      rows_inserted: 3,
      rows_rejected: 3,
    });
    const rejected = stock.rejects.map((r: { key: string }) => r.key).sort();
    expect(rejected).toEqual(['MO1003-13', 'MO9999-01', 'ZZ0000-99']);
    expect(stock.rejects.find((r: { key: string }) => r.key === 'ZZ0000-99').reason).toMatch(/unknown SKU/);

    const prices = await runConnector('01_prices');
    expect(prices.run).toMatchObject({ status: 'succeeded', rows_read: 4, rows_rejected: 1 });
    const printdata = await runConnector('01_printdata');
    expect(printdata.run).toMatchObject({ status: 'succeeded', rows_rejected: 1 });

    const db = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    const stockRows = await sql<{
      sku: string;
      quantity: number;
    }>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(db);
    expect(stockRows.rows).toEqual([
      { sku: 'MO1001-01.03', quantity: 1200 },
      { sku: 'MO1001-01.04', quantity: 5000 },
      { sku: 'MO1002-01.06', quantity: 300 },
    ]);
    const pen = (
      await sql<Row>`SELECT retail_price_100::text, purchase_price::text, is_sellable FROM aplt_products WHERE sku = 'MO1001-01'`.execute(
        db,
      )
    ).rows[0];
    expect(pen).toEqual({ retail_price_100: '0.4480', purchase_price: '0.3200', is_sellable: true });
    const bag = (await sql<Row>`SELECT is_sellable FROM aplt_products WHERE sku = 'MO1003-01'`.execute(db))
      .rows[0];
    expect(bag!.is_sellable).toBe(false);
    const positions =
      await sql<Row>`SELECT pp.position_code, pp.print_area, t.code, t.name_nl FROM aplt_print_positions pp
      JOIN aplt_product_techniques pt ON pt.print_position_id = pp.id JOIN aplt_techniques t ON t.id = pt.technique_id
      JOIN aplt_products p ON p.id = pp.product_id WHERE p.sku = 'MO1001-01' ORDER BY t.code`.execute(db);
    expect(positions.rows).toEqual([
      { position_code: 'BARREL', print_area: '40x8', code: '01-L1', name_nl: 'Lasergravure' },
      { position_code: 'BARREL', print_area: '40x8', code: '01-P1', name_nl: 'Tampondruk' },
    ]);
    const tiers =
      await sql<Row>`SELECT min_quantity, price_per_unit::text, next_colour_price::text, setup_cost::text FROM aplt_technique_pricing tp
      JOIN aplt_techniques t ON t.id = tp.technique_id WHERE t.code = '01-P1' ORDER BY min_quantity`.execute(
        db,
      );
    expect(tiers.rows).toEqual([
      { min_quantity: 1, price_per_unit: '0.2500', next_colour_price: '0.1500', setup_cost: '35.00' },
      { min_quantity: 500, price_per_unit: '0.1800', next_colour_price: '0.1000', setup_cost: '35.00' },
    ]);

    const list = (await api('master', masterToken, 'GET', '/admin/connectors/sync')).json();
    expect(list.connectors.find((c: { name: string }) => c.name === '01_stock')).toMatchObject({
      status: 'succeeded',
      last_run: { rows_rejected: 3 },
    });
  });

  it('is idempotent: running the products connector again inserts nothing and rewrites nothing unchanged', async () => {
    const again = await runConnector('01_products');
    expect(again.run).toMatchObject({
      status: 'succeeded',
      rows_inserted: 0,
      rows_updated: 0,
      metadata: { unchanged: 3 },
    });
  });

  it('fails a run whose feed URL answers 404, with the reason, and keeps the catalog', async () => {
    const db = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
      VALUES ('04', 'Supplier 04', 'json', ${JSON.stringify({ feeds: { products: `${feeds.url}/04/missing.json` } })}::jsonb)`.execute(
      db,
    );
    const before = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(db))
      .rows[0]!.n;
    const failed = await runConnector('04_products');
    expect(failed.run).toMatchObject({ status: 'failed', error: expect.stringContaining('HTTP 404') });
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(db)).rows[0]!.n,
    ).toBe(before);
  });

  it('never runs one connector twice at once: a second start while queued is 409', async () => {
    const db = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    // A run that holds the slot (as a long import would) makes the next request conflict.
    await sql`INSERT INTO aplt_connector_sync (connector, status) VALUES ('02_stock', 'running')`.execute(db);
    const res = await api('master', masterToken, 'POST', '/admin/connectors/sync?connector=02_stock');
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ type: 'conflict' });
    await sql`UPDATE aplt_connector_sync SET status = 'failed' WHERE connector = '02_stock'`.execute(db);
  });

  it('closes a stale run (its queue job is gone, e.g. a killed worker) instead of blocking the connector', async () => {
    const db = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    const stale = await sql<{ id: number }>`INSERT INTO aplt_connector_sync (connector, status, job_id)
      VALUES ('03_stock', 'running', 'connector-master-999999') RETURNING id`.execute(db);
    const res = await api('master', masterToken, 'POST', '/admin/connectors/sync?connector=03_stock');
    expect(res.status, res.text()).toBe(202);
    const old = (
      await sql<Row>`SELECT status, error FROM aplt_connector_sync WHERE id = ${stale.rows[0]!.id}`.execute(
        db,
      )
    ).rows[0];
    expect(old).toMatchObject({ status: 'failed', error: expect.stringContaining('stale') });
    await eventually(async () => {
      const r = (
        await api('master', masterToken, 'GET', `/admin/connectors/sync/runs/${res.json().run_id}`)
      ).json();
      return r.run.status === 'running' || r.run.status === 'queued' ? undefined : r;
    }, 'run after a stale one');
  });

  it('copies the catalog into a tenant (tenant update), then into its commerce tables (commerce sync)', async () => {
    const list = await api('master', masterToken, 'GET', '/admin/tenant-update');
    expect(list.status).toBe(200);
    expect(list.json()).toMatchObject({ state: 'idle' });
    expect(list.json().tenants.map((t: { id: string }) => t.id)).toEqual(['acme', 'globex']);

    expect(
      (await api('master', masterToken, 'POST', '/admin/tenant-update', { tenant_ids: ['nobody'] })).status,
    ).toBe(404);
    const start = await api('master', masterToken, 'POST', '/admin/tenant-update', { tenant_ids: ['acme'] });
    expect(start.status, start.text()).toBe(202);
    const run = await eventually(async () => {
      const body = (await api('master', masterToken, 'GET', '/admin/tenant-update')).json();
      return body.state === 'idle' && body.last_run?.status !== 'queued' ? body : undefined;
    }, 'tenant update');
    expect(run.last_run).toMatchObject({ status: 'succeeded', progress: '100.00' });
    expect(run.tenants.find((t: { id: string }) => t.id === 'acme').last_update_at).not.toBeNull();

    const acme = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('acme'))!);
    const copied = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(acme);
    expect(copied.rows[0]!.n).toBe(3);
    const acmeStock = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_stock`.execute(acme);
    expect(acmeStock.rows[0]!.n).toBe(3);

    // Re-running is safe: same rows, no duplicates.
    const again = await api('master', masterToken, 'POST', '/admin/tenant-update', { tenant_ids: ['acme'] });
    expect(again.status).toBe(202);
    await eventually(async () => {
      const body = (await api('master', masterToken, 'GET', '/admin/tenant-update')).json();
      return body.last_run?.id === again.json().run_id && body.last_run.status === 'succeeded'
        ? body
        : undefined;
    }, 'second tenant update');
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(acme)).rows[0]!.n,
    ).toBe(3);

    const idle = await api('acme', acmeToken, 'GET', '/admin/connectors/commerce-sync');
    expect(idle.json()).toEqual({ state: 'idle', last_run: null });
    const sync = await api('acme', acmeToken, 'POST', '/admin/connectors/commerce-sync');
    expect(sync.status).toBe(202);
    const done = await eventually(async () => {
      const body = (await api('acme', acmeToken, 'GET', '/admin/connectors/commerce-sync')).json();
      return body.state === 'idle' && body.last_run?.status === 'succeeded' ? body : undefined;
    }, 'commerce sync');
    expect(done.last_run).toMatchObject({ rows_read: 2, rows_inserted: 2, rows_updated: 0 });
    const commerce = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('acme'))!);
    const products =
      await sql<Row>`SELECT external_id, title, status FROM product ORDER BY external_id`.execute(commerce);
    expect(products.rows).toEqual([
      { external_id: 'MO1001-01', title: 'Blauwe balpen Classic', status: 'published' },
      { external_id: 'MO1002-01', title: 'Keramische mok 300 ml', status: 'published' },
    ]);
    const prices =
      await sql<Row>`SELECT pv.sku, p.min_quantity, p.amount::text FROM price p JOIN product_variant pv ON pv.id = p.variant_id
      WHERE pv.sku = 'MO1001-01.04' ORDER BY p.min_quantity`.execute(commerce);
    expect(prices.rows.map((r: Row) => [r.min_quantity, r.amount])).toEqual([
      [1, '0.5040'],
      [100, '0.4480'],
      [500, '0.3920'],
    ]);
    // Again: nothing changed, so nothing is rewritten; full=true writes every product again.
    const syncAgain = async (query: string) => {
      const started = await api('acme', acmeToken, 'POST', `/admin/connectors/commerce-sync${query}`);
      expect(started.status).toBe(202);
      return eventually(async () => {
        const body = (await api('acme', acmeToken, 'GET', '/admin/connectors/commerce-sync')).json();
        return body.last_run?.id === started.json().run_id && body.last_run.status === 'succeeded'
          ? body.last_run
          : undefined;
      }, `commerce sync${query}`);
    };
    const second = await syncAgain('');
    expect(second).toMatchObject({ rows_read: 2, rows_inserted: 0, rows_updated: 0 });
    expect(second.metadata.result).toMatchObject({ products: 0, unchanged: 2 });
    const full = await syncAgain('?full=true');
    expect(full).toMatchObject({ rows_read: 2, rows_inserted: 0, rows_updated: 2, metadata: { full: true } });
    expect((await api('acme', acmeToken, 'POST', '/admin/connectors/commerce-sync?full=maybe')).status).toBe(
      400,
    );
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM product_variant`.execute(commerce)).rows[0]!.n,
    ).toBe(3);
  });

  it('lets only the master’s admins start imports and tenant updates; another tenant’s admin gets 403', async () => {
    const importing = await api('acme', acmeToken, 'POST', '/admin/connectors/sync?connector=01_products');
    expect(importing.status).toBe(403);
    expect(importing.json()).toEqual({
      type: 'not_allowed',
      message: 'Starting a connector import is for admins of the master tenant only',
    });
    for (const tenant_ids of [['globex'], ['acme'], ['master']]) {
      const update = await api('acme', acmeToken, 'POST', '/admin/tenant-update', { tenant_ids });
      expect(update.status, JSON.stringify(tenant_ids)).toBe(403);
      expect(update.json()).toMatchObject({ type: 'not_allowed' });
    }
    // Nor does acme learn the fleet's tenants; it still sees the connector state, read-only.
    expect((await api('acme', acmeToken, 'GET', '/admin/tenant-update')).status).toBe(403);
    expect((await api('acme', acmeToken, 'GET', '/admin/connectors/sync')).status).toBe(200);
  });

  it('refuses a request sent to the catalog port directly, around the proxy', async () => {
    const direct = await httpRequest(`http://127.0.0.1:${proxy.ports.catalog}/store/aplt/products`, {
      host: 'acme.localhost',
    });
    expect(direct.status).toBe(401);
    expect(direct.json()).toMatchObject({ type: 'unauthorized' });
    expect((await api('acme', undefined, 'GET', '/store/aplt/products')).status).toBe(200);
  });

  it('shows the tenant store catalog in three languages, with the price at a quantity, and a category tree', async () => {
    const nl = (await api('acme', undefined, 'GET', '/store/aplt/products?lang=nl&quantity=500')).json();
    expect(nl.count).toBe(2);
    expect(nl.products.map((p: { name: string }) => p.name)).toEqual([
      'Blauwe balpen Classic',
      'Keramische mok 300 ml',
    ]);
    expect(nl.products[0].price).toEqual({ quantity: 500, unit_price: '0.3920', currency: 'EUR' });
    // A repeated page is answered from the short-lived cache: same body, same content type.
    const again = await api('acme', undefined, 'GET', '/store/aplt/products?lang=nl&quantity=500');
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(again.json()).toEqual(nl);
    const en = (await api('acme', undefined, 'GET', '/store/aplt/products?lang=en')).json();
    expect(en.products.map((p: { name: string }) => p.name)).toEqual([
      'Classic ballpoint pen',
      'Ceramic mug 300 ml',
    ]);
    const de = (await api('acme', undefined, 'GET', '/store/aplt/products?lang=de&q=kugelschreiber')).json();
    expect(de.products.map((p: { name: string }) => p.name)).toEqual(['Kugelschreiber Classic']);
    const pens = (await api('acme', undefined, 'GET', '/store/aplt/products?category=writing')).json();
    expect(pens.products.map((p: { sku: string }) => p.sku)).toEqual(['MO1001-01']);
    // One item number exactly (the storefront's product page), which the word search does not split.
    const one = (
      await api('acme', undefined, 'GET', '/store/aplt/products?sku=MO1001-01&quantity=500')
    ).json();
    expect(one.products.map((p: { sku: string }) => p.sku)).toEqual(['MO1001-01']);
    expect(one.products[0].price.unit_price).toBe('0.3920');
    // The product page also gets the print techniques: positions with their print size, setup cost and scale.
    expect(one.products[0].print_techniques.map((t: { code: string }) => t.code).sort()).toEqual([
      '01-L1',
      '01-P1',
    ]);
    const pad = one.products[0].print_techniques.find((t: { code: string }) => t.code === '01-P1');
    expect(pad).toMatchObject({
      name: 'Tampondruk',
      positions: [{ code: 'BARREL', print_area: '40x8' }],
      setup_cost: '35.00',
      prices: [
        { min_quantity: 1, price_per_unit: '0.2500', next_colour_price: '0.1500' },
        { min_quantity: 500, price_per_unit: '0.1800', next_colour_price: '0.1000' },
      ],
    });
    const padEn = (await api('acme', undefined, 'GET', '/store/aplt/products?sku=MO1001-01&lang=en')).json();
    expect(
      padEn.products[0].print_techniques.find((t: { code: string }) => t.code === '01-P1').name,
    ).toBeTypeOf('string');
    // Lists stay lean: no techniques without sku=.
    expect(nl.products[0].print_techniques).toBeUndefined();
    expect((await api('acme', undefined, 'GET', '/store/aplt/products?sku=MO1001')).json().count).toBe(0);
    const bad = await api('acme', undefined, 'GET', '/store/aplt/products?lang=fr');
    expect(bad.status).toBe(400);

    const cats = (await api('acme', undefined, 'GET', '/store/aplt/categories?lang=de')).json();
    expect(cats.categories[0]).toMatchObject({
      code: 'writing',
      name: 'Schreibwaren',
      children: [{ code: 'pens', name: 'Kugelschreiber' }],
    });
    // globex has had no tenant update: an empty shop, not someone else's catalog.
    expect((await api('globex', undefined, 'GET', '/store/aplt/products')).json().count).toBe(0);
  });

  it('finds "blauwe pen" by natural-language search and proposes priced quotation lines', async () => {
    const search = await api('acme', acmeToken, 'POST', '/admin/agent/product-search', {
      query: 'blauwe pen onder 50 cent met tampondruk',
    });
    expect(search.status, search.text()).toBe(200);
    const body = search.json();
    expect(body.filters).toMatchObject({ colour: 'blue', max_unit_price: '0.5000', technique: 'pad print' });
    expect(body.results[0]).toMatchObject({ sku: 'MO1001-01', name: { nl: 'Blauwe balpen Classic' } });
    const en = (
      await api('acme', acmeToken, 'POST', '/admin/agent/product-search', {
        query: 'blue pens under 50 cents with pad print',
      })
    ).json();
    expect(en.results.map((r: { sku: string }) => r.sku)).toEqual(['MO1001-01']);
    const tooCheap = (
      await api('acme', acmeToken, 'POST', '/admin/agent/product-search', {
        query: 'blauwe pen onder 10 cent',
      })
    ).json();
    expect(tooCheap.results).toEqual([]);

    const lines = await api('acme', acmeToken, 'POST', '/admin/aplt/ai-generate-lines', {
      text: '500 blauwe pennen met tampondruk 2 kleuren en 100 mokken',
    });
    expect(lines.status, lines.text()).toBe(200);
    const proposal = lines.json();
    expect(proposal.lines).toHaveLength(2);
    // pen: retail 0.3920 at 500 + print 0.18 + 1 x 0.10 further colour; setup 2 x 35.00
    expect(proposal.lines[0]).toMatchObject({
      sku: 'MO1001-01',
      variant_sku: 'MO1001-01.04',
      quantity: 500,
      unit_price: '0.3920',
      technique: { code: '01-P1', name: 'Tampondruk' },
      print_colours: 2,
      print_unit_price: '0.2800',
      setup_cost: '70.00',
      line_total: '406.00',
    });
    // mug: retail 2.10 x 1.4 = 2.94 at 100, default technique pad print 1 colour 0.25, setup 35.00
    expect(proposal.lines[1]).toMatchObject({
      sku: 'MO1002-01',
      quantity: 100,
      unit_price: '2.9400',
      line_total: '354.00',
    });
    expect(proposal.total).toBe('760.00');
  });

  it('answers admin questions from the tenant data with the numbers used', async () => {
    const acme = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('acme'))!);
    await sql`INSERT INTO aplt_customers (email, company) VALUES ('inkoop@klant.test', 'Klant BV')`.execute(
      acme,
    );
    await sql`INSERT INTO aplt_quotation_headers (quotation_number, customer_id, total, subtotal) SELECT 'Q-2026-0001', id, 406.00, 406.00 FROM aplt_customers`.execute(
      acme,
    );
    await sql`INSERT INTO aplt_invoice_headers (invoice_number, customer_id, total, subtotal, issue_date, due_date)
      SELECT 'F-2026-0001', id, 121.00, 100.00, CURRENT_DATE - 60, CURRENT_DATE - 30 FROM aplt_customers`.execute(
      acme,
    );
    const res = await api('acme', acmeToken, 'POST', '/admin/aplt/ai-assist', {
      question: 'Hoeveel offertes staan open en welke facturen zijn te laat?',
    });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({
      open_quotations: { count: 1, total: '406.00' },
      overdue_invoices: { count: 1, outstanding: '121.00' },
    });
    expect(body.answer).toContain('406.00');
    expect(body.answer).toContain('121.00');
  });

  it('serves the queue dashboard to admins only', async () => {
    expect((await api('master', undefined, 'GET', '/admin/queues')).status).toBe(401);
    const res = await api('master', masterToken, 'GET', '/admin/queues');
    expect(res.status).toBe(200);
    expect(res.text()).toContain('Catalog queues'); // Bull Board's page with our title
    const queues = await api('master', masterToken, 'GET', '/admin/queues/api/queues');
    expect(queues.status).toBe(200);
    expect(queues.json().queues.map((q: { name: string }) => q.name)).toEqual(
      expect.arrayContaining(['connectors', 'commerce-sync', 'tenant-update']),
    );
  });
});
