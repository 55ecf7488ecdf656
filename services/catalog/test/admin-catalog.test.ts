import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { type FeatureKey, featureKeys, staticFeatureSource } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken } from './helpers';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The admin panel's catalog records: suppliers, technique pricing and the product search of the
 * quotation line editor. The master owns the catalog (writes there only); a tenant reads its own
 * copy. Called with the proxy's identity assertion and an admin token of the host's tenant.
 */
describe('catalog: suppliers, technique pricing and the admin product search', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let masterDb: Kysely<ApltDatabase>;
  let acmeDb: Kysely<ApltDatabase>;
  const tokens: Record<string, string> = {};
  const licensed: Record<string, FeatureKey[]> = {};
  const ids = { supplier01: 0, supplier02: 0, tampo: 0, zeef: 0, tampoTier100: 0, acmeSupplier: 0, run: 0 };

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }, { id: 'globex' }]);
    redis = await createTestRedis();
    masterDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    acmeDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('acme'))!);
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource(licensed), start: async () => {}, close: async () => {} },
      },
      loadConfig({
        ...fleet.env,
        ...testSecrets(),
        LOG_LEVEL: 'silent',
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
      }),
    );
    await app.ready();
    for (const id of ['master', 'acme', 'globex']) tokens[id] = await adminToken(id);

    // The master's catalog: two suppliers with feeds, techniques with scales, a product with a
    // variant, stock, scales, a position and the techniques it offers there.
    const feeds = (code: string) => ({
      feeds: {
        products: `https://feeds.example/${code}/products.json?key=SECRET-${code}`,
        stock: `https://feeds.example/${code}/stock.json?key=SECRET-${code}`,
      },
      margin_percent: '40',
    });
    ids.supplier01 = (
      await sql<{ id: number }>`INSERT INTO aplt_suppliers (code, name, feed_format, settings, contact_email)
        VALUES ('01', 'Midocean', 'json', ${JSON.stringify(feeds('01'))}::jsonb, 'feeds@midocean.example') RETURNING id`.execute(
        masterDb,
      )
    ).rows[0]!.id;
    ids.supplier02 = (
      await sql<{ id: number }>`INSERT INTO aplt_suppliers (code, name, settings)
        VALUES ('02', 'XD Connects', ${JSON.stringify(feeds('02'))}::jsonb) RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    for (let i = 10; i < 35; i++)
      await sql`INSERT INTO aplt_suppliers (code, name, is_active) VALUES (${String(i)}, ${`Leverancier ${i}`}, ${i % 2 === 0})`.execute(
        masterDb,
      );
    ids.tampo = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_techniques (code, supplier_code, name_nl, name_en, max_colours)
        VALUES ('01-TAMPO', '01', 'Tampondruk', 'Pad print', 4) RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    ids.zeef = (
      await sql<{ id: number }>`INSERT INTO aplt_techniques (code, supplier_code, name_nl, pricing_type)
        VALUES ('02-ZEEF', '02', 'Zeefdruk', 'area_range') RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    await sql`INSERT INTO aplt_technique_pricing (technique_id, min_quantity, price_per_unit, next_colour_price, setup_cost)
      VALUES (${ids.tampo}, 1, 0.6, 0.2, 45)`.execute(masterDb);
    ids.tampoTier100 = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_technique_pricing (technique_id, min_quantity, price_per_unit, next_colour_price, setup_cost)
        VALUES (${ids.tampo}, 100, 0.4, 0.15, 45) RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    await sql`INSERT INTO aplt_technique_pricing (technique_id, min_quantity, price_per_unit, area_from, area_to)
      VALUES (${ids.zeef}, 1, 0.9, 0, 20), (${ids.zeef}, 1, 1.4, 20.01, 60)`.execute(masterDb);
    await sql`INSERT INTO aplt_opstartkosten (technique_id, description, setup_cost, per_colour)
      VALUES (${ids.tampo}, 'Cliché', 45, true)`.execute(masterDb);
    const product = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_products (sku, supplier_code, name_nl, name_en, description_nl, retail_price_100)
        VALUES ('MO1001-01', '01', 'Balpen Classic', 'Ballpen Classic', 'Blauwschrijvende pen', 0.85) RETURNING id`.execute(
        masterDb,
      )
    ).rows[0]!.id;
    await sql`INSERT INTO aplt_products (sku, supplier_code, name_nl) VALUES ('MO2002-01', '01', 'Katoenen tas')`.execute(
      masterDb,
    );
    await sql`INSERT INTO aplt_product_variants (product_id, sku, color_code, color_name, hex)
      VALUES (${product}, 'MO1001-01.05', '05', 'Blauw', '#0000FF')`.execute(masterDb);
    await sql`INSERT INTO aplt_stock (sku, quantity) VALUES ('MO1001-01.05', 1200)`.execute(masterDb);
    await sql`INSERT INTO aplt_product_prices (product_id, min_quantity, price) VALUES (${product}, 1, 1.10), (${product}, 100, 0.85)`.execute(
      masterDb,
    );
    const position = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_print_positions (product_id, position_code, position_name, print_area)
        VALUES (${product}, 'BARREL', 'Schacht', '40x8') RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    await sql`INSERT INTO aplt_product_techniques (product_id, technique_id, print_position_id, max_colours, is_default, print_area)
      VALUES (${product}, ${ids.tampo}, ${position}, 2, true, '35x7'), (${product}, ${ids.zeef}, ${position}, NULL, false, NULL)`.execute(
      masterDb,
    );
    await sql`SELECT aplt_refresh_product_search()`.execute(masterDb);
    ids.run = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_connector_sync (connector, supplier_code, status, progress, rows_read, started_at, finished_at, metadata)
        VALUES ('01_products', '01', 'succeeded', 100, 2, now(), now(),
          '{"progress": {"phase": "finishing", "done": 900, "total": 1000, "unit": "bytes"}}') RETURNING id`.execute(
        masterDb,
      )
    ).rows[0]!.id;
    // acme's own copy of the catalog differs: reads there show acme's rows.
    ids.acmeSupplier = (
      await sql<{
        id: number;
      }>`INSERT INTO aplt_suppliers (code, name) VALUES ('01', 'Midocean (kopie)') RETURNING id`.execute(
        acmeDb,
      )
    ).rows[0]!.id;
  }, 60_000);
  beforeEach(() => {
    for (const k of Object.keys(licensed)) delete licensed[k];
  });
  afterAll(async () => {
    await app?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  const call = async (
    tenant: string,
    method: Method,
    url: string,
    body?: unknown,
    token: string | null | undefined = undefined,
  ) => {
    const t = token === undefined ? tokens[tenant] : token;
    const res = await app.inject({
      method,
      url,
      headers: { ...viaProxy(`${tenant}.localhost`), ...(t ? { authorization: `Bearer ${t}` } : {}) },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null, raw: res.body };
  };

  it('guards every route: 401 without a token, 403 without the feature, 403 for writes off the master', async () => {
    const routes: Array<[Method, string, FeatureKey, object?]> = [
      ['GET', '/admin/aplt/suppliers', 'suppliers'],
      ['GET', '/admin/aplt/suppliers/1', 'suppliers'],
      ['PUT', '/admin/aplt/suppliers/1', 'suppliers', { name: 'X' }],
      ['GET', '/admin/aplt/technique-pricing', 'technique_pricing'],
      ['GET', '/admin/aplt/technique-pricing/1', 'technique_pricing'],
      [
        'POST',
        '/admin/aplt/technique-pricing/1/tiers',
        'technique_pricing',
        { min_quantity: 1, price_per_unit: '1' },
      ],
      ['PUT', '/admin/aplt/technique-pricing/1/tiers/1', 'technique_pricing', { price_per_unit: '1' }],
      ['DELETE', '/admin/aplt/technique-pricing/1/tiers/1', 'technique_pricing'],
      ['GET', '/admin/aplt/products', 'products'],
    ];
    for (const [method, url, feature, body] of routes) {
      expect((await call('master', method, url, body, null)).status, `${method} ${url}`).toBe(401);
      licensed.master = featureKeys.filter((f) => f !== feature);
      const refused = await call('master', method, url, body);
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(refused.body).toEqual({ type: 'not_allowed', message: 'Feature not available', feature });
      delete licensed.master;
    }
    for (const [method, url, , body] of routes.filter(([m]) => m !== 'GET')) {
      const res = await call('acme', method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.message).toMatch(/admins of the master tenant only/);
    }
  });

  describe('suppliers', () => {
    it('lists with paging and search, shows connectors and hides feed locations', async () => {
      const page = await call('master', 'GET', '/admin/aplt/suppliers?limit=10');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ count: 27, limit: 10, offset: 0, editable: true });
      expect(page.body.data[0]).toMatchObject({
        code: '01',
        name: 'Midocean',
        feed_format: 'json',
        format: 'json',
        margin_percent: '40',
        feeds: { products: true, stock: true, prices: false, printdata: false },
        product_count: 2,
        technique_count: 1,
      });
      expect(page.body.data[1]).toMatchObject({ code: '02', feed_format: null, format: 'tsv' });
      expect(page.body.data[0].connectors).toEqual([
        {
          name: '01_products',
          kind: 'products',
          status: 'succeeded',
          last_run_id: ids.run,
          last_run_at: expect.any(String),
          last_run_path: `/admin/connectors/sync/runs/${ids.run}`,
        },
        expect.objectContaining({ name: '01_stock', status: 'idle', last_run_id: null, last_run_path: null }),
        expect.objectContaining({ name: '01_prices' }),
        expect.objectContaining({ name: '01_printdata' }),
      ]);
      expect(page.raw).not.toContain('SECRET');
      expect(page.raw).not.toContain('feeds.example');
      const last = await call('master', 'GET', '/admin/aplt/suppliers?limit=10&offset=20');
      expect(last.status, last.raw).toBe(200);
      expect(last.body.data.map((s: Item) => s.code)).toEqual(['28', '29', '30', '31', '32', '33', '34']);
      expect((await call('master', 'GET', '/admin/aplt/suppliers?offset=27')).body).toMatchObject({
        data: [],
        count: 27,
      });
      expect(
        (await call('master', 'GET', '/admin/aplt/suppliers?q=midoc')).body.data.map((s: Item) => s.code),
      ).toEqual(['01']);
      expect(
        (await call('master', 'GET', '/admin/aplt/suppliers?is_active=false&limit=100')).body.count,
      ).toBe(12);
      for (const q of ['limit=0', 'limit=101', 'offset=-1', 'is_active=maybe', `q=${'x'.repeat(201)}`])
        expect((await call('master', 'GET', `/admin/aplt/suppliers?${q}`)).status, q).toBe(400);
      // A tenant sees its own copy, read-only.
      const acme = await call('acme', 'GET', '/admin/aplt/suppliers');
      expect(acme.body).toMatchObject({ count: 1, editable: false });
      expect(acme.body.data[0]).toMatchObject({ name: 'Midocean (kopie)', product_count: 0 });
      expect((await call('globex', 'GET', '/admin/aplt/suppliers')).body.count).toBe(0);
    });

    it('shows one supplier with its connectors and their last runs (with progress)', async () => {
      const d = await call('master', 'GET', `/admin/aplt/suppliers/${ids.supplier01}`);
      expect(d.status).toBe(200);
      expect(d.body.editable).toBe(true);
      expect(d.body.connectors[0]).toMatchObject({
        name: '01_products',
        last_run: {
          id: ids.run,
          status: 'succeeded',
          percent: 100,
          phase: 'succeeded',
          done: 1000,
          total: 1000,
          unit: 'bytes',
        },
      });
      expect(d.raw).not.toContain('SECRET');
      expect((await call('master', 'GET', '/admin/aplt/suppliers/999999')).status).toBe(404);
      expect((await call('master', 'GET', '/admin/aplt/suppliers/abc')).status).toBe(400);
      // Ids are per tenant database: the master's 02 does not exist in acme's.
      expect((await call('acme', 'GET', `/admin/aplt/suppliers/${ids.supplier02}`)).status).toBe(404);
      expect((await call('acme', 'GET', `/admin/aplt/suppliers/${ids.acmeSupplier}`)).body.name).toBe(
        'Midocean (kopie)',
      );
    });

    it('changes name, contact, state, format and margin on the master, never the feed locations', async () => {
      const before = (await call('master', 'GET', `/admin/aplt/suppliers/${ids.supplier02}`)).body;
      const put = await call('master', 'PUT', `/admin/aplt/suppliers/${ids.supplier02}`, {
        name: 'XD Connects BV',
        website: 'https://www.xdconnects.com',
        contact_email: 'Orders@XD.example',
        is_active: false,
        feed_format: 'tsv',
        margin_percent: '37.5',
        expected_updated_at: before.updated_at,
      });
      expect(put.status, put.raw).toBe(200);
      expect(put.body).toMatchObject({
        name: 'XD Connects BV',
        website: 'https://www.xdconnects.com',
        contact_email: 'orders@xd.example',
        is_active: false,
        feed_format: 'tsv',
        margin_percent: '37.5',
        feeds: { products: true, stock: true },
      });
      const stored = (
        await sql<{
          settings: { feeds: Record<string, string>; margin_percent: string };
        }>`SELECT settings FROM aplt_suppliers WHERE id = ${ids.supplier02}`.execute(masterDb)
      ).rows[0]!.settings;
      expect(stored.feeds.products).toBe('https://feeds.example/02/products.json?key=SECRET-02');
      expect(stored.margin_percent).toBe('37.5');
      // Stale form: 409, nothing written.
      const stale = await call('master', 'PUT', `/admin/aplt/suppliers/${ids.supplier02}`, {
        name: 'Oud',
        expected_updated_at: before.updated_at,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.updated_at).toBe(put.body.updated_at);
      // null takes the margin and format back to the defaults; empty strings clear contact fields.
      const reset = await call('master', 'PUT', `/admin/aplt/suppliers/${ids.supplier02}`, {
        margin_percent: null,
        feed_format: null,
        website: '',
      });
      expect(reset.body).toMatchObject({
        margin_percent: null,
        feed_format: null,
        format: 'tsv',
        website: null,
      });
      for (const body of [
        { name: '' },
        { website: 'ftp://xd.example' },
        { website: 'not a url' },
        { contact_email: 'nobody' },
        { margin_percent: 40 },
        { margin_percent: '40.123' },
        { margin_percent: '1001' },
        { feed_format: 'csv2' },
        { is_active: 'yes' },
        { expected_updated_at: 'now' },
      ]) {
        const res = await call('master', 'PUT', `/admin/aplt/suppliers/${ids.supplier02}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await call('master', 'PUT', '/admin/aplt/suppliers/999999', { name: 'X' })).status).toBe(404);
      // A tenant cannot change its copy (the next tenant update would undo it).
      expect(
        (await call('acme', 'PUT', `/admin/aplt/suppliers/${ids.acmeSupplier}`, { name: 'X' })).status,
      ).toBe(403);
    });
  });

  describe('technique pricing', () => {
    it('lists techniques with their scales and setup cost, paged and searchable', async () => {
      const list = await call('master', 'GET', '/admin/aplt/technique-pricing');
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ count: 2, editable: true });
      const tampo = list.body.data.find((t: Item) => t.code === '01-TAMPO');
      expect(tampo).toMatchObject({
        supplier_code: '01',
        name_nl: 'Tampondruk',
        max_colours: 4,
        setup_cost: { setup_cost: '45.00', per_colour: true },
        product_setup_costs: 0,
      });
      expect(
        tampo.tiers.map((t: Item) => [t.min_quantity, t.price_per_unit, t.next_colour_price, t.setup_cost]),
      ).toEqual([
        [1, '0.6000', '0.2000', '45.00'],
        [100, '0.4000', '0.1500', '45.00'],
      ]);
      const zeef = list.body.data.find((t: Item) => t.code === '02-ZEEF');
      expect(zeef.tiers.map((t: Item) => [t.area_from, t.area_to])).toEqual([
        ['0.00', '20.00'],
        ['20.01', '60.00'],
      ]);
      expect(
        (await call('master', 'GET', '/admin/aplt/technique-pricing?q=pad')).body.data.map(
          (t: Item) => t.code,
        ),
      ).toEqual(['01-TAMPO']);
      expect((await call('master', 'GET', '/admin/aplt/technique-pricing?supplier_code=02')).body.count).toBe(
        1,
      );
      const second = await call('master', 'GET', '/admin/aplt/technique-pricing?limit=1&offset=1');
      expect(second.body).toMatchObject({ count: 2, limit: 1, offset: 1 });
      expect(second.body.data).toHaveLength(1);
      for (const q of ['limit=0', 'limit=101', 'supplier_code=1', 'is_active=1'])
        expect((await call('master', 'GET', `/admin/aplt/technique-pricing?${q}`)).status, q).toBe(400);
      expect((await call('master', 'GET', `/admin/aplt/technique-pricing/${ids.zeef}`)).body).toMatchObject({
        code: '02-ZEEF',
        editable: true,
      });
      expect((await call('master', 'GET', '/admin/aplt/technique-pricing/999999')).status).toBe(404);
      // A tenant reads its own (here empty) copy.
      expect((await call('acme', 'GET', '/admin/aplt/technique-pricing')).body).toMatchObject({
        count: 0,
        editable: false,
      });
      expect((await call('acme', 'GET', `/admin/aplt/technique-pricing/${ids.tampo}`)).status).toBe(404);
    });

    it('adds scales as strings and refuses overlapping print areas and duplicate keys', async () => {
      const url = `/admin/aplt/technique-pricing/${ids.zeef}/tiers`;
      const add = await call('master', 'POST', url, {
        min_quantity: 1,
        area_from: '60.01',
        area_to: '120',
        price_per_unit: '1.95',
        setup_cost: '55.50',
        valid_from: '2026-01-01',
      });
      expect(add.status, add.raw).toBe(201);
      expect(add.body.tier).toMatchObject({
        area_from: '60.01',
        area_to: '120.00',
        price_per_unit: '1.9500',
        setup_cost: '55.50',
        currency: 'EUR',
        colours: null,
        valid_from: '2026-01-01',
      });
      expect(add.body.technique.tiers).toHaveLength(3);
      // 50-70 cm2 meets both 20.01-60 and 60.01-120: ambiguous, refused with the scale it meets.
      const overlap = await call('master', 'POST', url, {
        min_quantity: 1,
        area_from: '50',
        area_to: '70',
        price_per_unit: '2',
      });
      expect(overlap.status).toBe(409);
      expect(overlap.body).toMatchObject({ type: 'conflict' });
      expect(typeof overlap.body.tier_id).toBe('number');
      // An open range meets everything above it.
      expect(
        (await call('master', 'POST', url, { min_quantity: 1, area_from: '100', price_per_unit: '2' }))
          .status,
      ).toBe(409);
      // The same range for another quantity scale or another colour count is a different scale.
      expect(
        (
          await call('master', 'POST', url, {
            min_quantity: 500,
            area_from: '50',
            area_to: '70',
            price_per_unit: '1.5',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call('master', 'POST', url, {
            min_quantity: 1,
            colours: 2,
            area_from: '50',
            area_to: '70',
            price_per_unit: '2.5',
          })
        ).status,
      ).toBe(201);
      // No area at all on the tampo technique: a second scale with the same key is a duplicate.
      const dup = await call('master', 'POST', `/admin/aplt/technique-pricing/${ids.tampo}/tiers`, {
        min_quantity: 100,
        price_per_unit: '0.35',
      });
      expect(dup.status).toBe(409);
      for (const body of [
        {},
        { min_quantity: 1 },
        { min_quantity: 0, price_per_unit: '1' },
        { min_quantity: 1, price_per_unit: 1.5 },
        { min_quantity: 1, price_per_unit: '1.23456' },
        { min_quantity: 1, price_per_unit: '-1' },
        { min_quantity: 1, price_per_unit: '1', area_from: '30', area_to: '20' },
        { min_quantity: 1, price_per_unit: '1', currency: 'eur' },
        { min_quantity: 1, price_per_unit: '1', colours: 0 },
        { min_quantity: 1, price_per_unit: '1', setup_cost: '4.555' },
        { min_quantity: 1, price_per_unit: '1', valid_from: '2026-02-01', valid_until: '2026-01-01' },
      ]) {
        const res = await call('master', 'POST', url, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect(
        (
          await call('master', 'POST', '/admin/aplt/technique-pricing/999999/tiers', {
            min_quantity: 1,
            price_per_unit: '1',
          })
        ).status,
      ).toBe(404);
    });

    it('updates and deletes scales with the same rules', async () => {
      const base = `/admin/aplt/technique-pricing/${ids.tampo}/tiers/${ids.tampoTier100}`;
      const before = (
        await call('master', 'GET', `/admin/aplt/technique-pricing/${ids.tampo}`)
      ).body.tiers.find((t: Item) => t.id === ids.tampoTier100);
      const put = await call('master', 'PUT', base, {
        price_per_unit: '0.3800',
        next_colour_price: null,
        expected_updated_at: before.updated_at.toString(),
      });
      expect(put.status, put.raw).toBe(200);
      expect(put.body.tier).toMatchObject({
        id: ids.tampoTier100,
        price_per_unit: '0.3800',
        next_colour_price: null,
        min_quantity: 100,
      });
      expect(Date.parse(put.body.tier.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(
        (await call('master', 'PUT', base, { price_per_unit: '0.1', expected_updated_at: before.updated_at }))
          .status,
      ).toBe(409);
      // Moving it onto the other scale's key, or giving it a range its stored end is below.
      expect((await call('master', 'PUT', base, { min_quantity: 1 })).status).toBe(409);
      const zeefTiers = (await call('master', 'GET', `/admin/aplt/technique-pricing/${ids.zeef}`)).body.tiers;
      const small = zeefTiers.find((t: Item) => t.area_to === '20.00');
      const zeefUrl = `/admin/aplt/technique-pricing/${ids.zeef}/tiers/${small.id}`;
      expect((await call('master', 'PUT', zeefUrl, { area_from: '30' })).status).toBe(422);
      expect((await call('master', 'PUT', zeefUrl, { area_to: '25' })).status).toBe(409);
      expect((await call('master', 'PUT', zeefUrl, { area_to: '19' })).status).toBe(200);
      expect((await call('master', 'PUT', zeefUrl, { price_per_unit: 'cheap' })).status).toBe(400);
      // A scale is found under its own technique only.
      expect(
        (
          await call('master', 'PUT', `/admin/aplt/technique-pricing/${ids.tampo}/tiers/${small.id}`, {
            price_per_unit: '1',
          })
        ).status,
      ).toBe(404);
      expect(
        (await call('master', 'DELETE', `/admin/aplt/technique-pricing/${ids.tampo}/tiers/${small.id}`))
          .status,
      ).toBe(404);
      expect((await call('master', 'DELETE', zeefUrl)).status).toBe(204);
      expect((await call('master', 'DELETE', zeefUrl)).status).toBe(404);
      expect(
        (await call('master', 'GET', `/admin/aplt/technique-pricing/${ids.zeef}`)).body.tiers.map(
          (t: Item) => t.id,
        ),
      ).not.toContain(small.id);
      expect(
        (await call('master', 'DELETE', `/admin/aplt/technique-pricing/${ids.zeef}/tiers/abc`)).status,
      ).toBe(400);
      // Every change is in the audit log with who made it; refused ones are not.
      const audit = await sql<{
        action: string;
        actor: string;
        entity_id: string;
      }>`SELECT action, actor, entity_id
        FROM aplt_audit_log WHERE entity_type IN ('technique_pricing', 'supplier') ORDER BY id`.execute(
        masterDb,
      );
      expect(audit.rows.map((r) => r.action)).toEqual([
        'supplier.update',
        'supplier.update',
        'technique_pricing.add',
        'technique_pricing.add',
        'technique_pricing.add',
        'technique_pricing.update',
        'technique_pricing.update',
        'technique_pricing.delete',
      ]);
      expect(audit.rows.at(-1)).toMatchObject({ actor: 'user_x', entity_id: String(small.id) });
    });
  });

  describe('admin product search', () => {
    it('finds products by SKU or words, with variants, stock, scales and the techniques per position', async () => {
      const bySku = await call('master', 'GET', '/admin/aplt/products?q=mo1001');
      expect(bySku.status).toBe(200);
      expect(bySku.body).toMatchObject({ count: 1, limit: 20, offset: 0 });
      expect(bySku.body.data[0]).toMatchObject({
        sku: 'MO1001-01',
        name_nl: 'Balpen Classic',
        supplier_code: '01',
        is_sellable: true,
        retail_price_100: '0.8500',
        vat_rate: null,
        price_tiers: [
          { min_quantity: 1, price: '1.1000' },
          { min_quantity: 100, price: '0.8500' },
        ],
        variants: [
          { sku: 'MO1001-01.05', color_name: 'Blauw', hex: '#0000FF', stock: 1200, is_active: true },
        ],
        print_positions: [
          {
            code: 'BARREL',
            name: 'Schacht',
            print_area: '40x8',
            techniques: [
              { id: ids.tampo, code: '01-TAMPO', max_colours: 2, print_area: '35x7', is_default: true },
              { id: ids.zeef, code: '02-ZEEF', max_colours: null, print_area: null, is_default: false },
            ],
          },
        ],
      });
      // A variant SKU and words of the name or description find it too.
      for (const q of ['MO1001-01.05', 'balpen', 'ballpen', 'blauwschrijvende'])
        expect(
          (await call('master', 'GET', `/admin/aplt/products?q=${q}`)).body.data.map((p: Item) => p.sku),
          q,
        ).toEqual(['MO1001-01']);
      // Unsellable products are found too (a quotation may price them by hand), or filtered out.
      const all = await call('master', 'GET', '/admin/aplt/products');
      expect(all.status, all.raw).toBe(200);
      expect(all.body.count).toBe(2);
      expect(
        (await call('master', 'GET', '/admin/aplt/products?sellable=true')).body.data.map((p: Item) => p.sku),
      ).toEqual(['MO1001-01']);
      const tas = await call('master', 'GET', '/admin/aplt/products?sellable=false');
      expect(tas.body.data[0]).toMatchObject({
        sku: 'MO2002-01',
        retail_price_100: null,
        variants: [],
        print_positions: [],
      });
      const paged = await call('master', 'GET', '/admin/aplt/products?limit=1&offset=1');
      expect(paged.body).toMatchObject({ count: 2 });
      expect(paged.body.data.map((p: Item) => p.sku)).toEqual(['MO2002-01']);
      expect((await call('master', 'GET', '/admin/aplt/products?q=%25')).body.count).toBe(0);
      for (const q of ['limit=0', 'limit=101', 'sellable=ja', 'supplier_code=abc'])
        expect((await call('master', 'GET', `/admin/aplt/products?${q}`)).status, q).toBe(400);
      // Each tenant searches its own catalog.
      expect((await call('acme', 'GET', '/admin/aplt/products?q=balpen')).body.count).toBe(0);
    });
  });
});
