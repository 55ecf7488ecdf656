import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApltDatabase, sql, type Transaction } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase, waitForLockWaiter } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnector } from '../src/connectors/connector-registry';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun, getRun, listRejects } from '../src/connectors/sync-run.repository';
import { listStoreProducts } from '../src/store/store.repository';
import { fixtures, seedSuppliersAndCategories } from './helpers';

/** A row of a raw query whose columns the test states in the query itself. */
type Row = Record<string, unknown>;

// Small batches and product chunks, so every feed here spans several of them.
const opts = { batchSize: 2, productChunkRows: 2, defaultMarginPercent: '40' };

describe('connector feed formats (file paths, streamed parsers, batched upserts)', () => {
  let aplt: TestPgDatabase<ApltDatabase>;
  let scratch: string;

  beforeAll(async () => {
    aplt = await createTestPgDatabase('aplt');
    scratch = await mkdtemp(join(tmpdir(), 'catalog-feeds-'));
    await seedSuppliersAndCategories(aplt.db, (code) => join(fixtures, code));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
    await aplt?.drop();
  });

  const run = async (name: string) => {
    const connector = findConnector(name)!;
    const r = await createRun(aplt.db, { connector: name });
    await runConnector(aplt.db, r.id, connector, opts);
    return { run: (await getRun(aplt.db, r.id))!, rejects: await listRejects(aplt.db, r.id) };
  };

  it('imports the tab-separated XD-style feeds (one line per item, Qty1..6 tiers, print lines)', async () => {
    const products = await run('02_products');
    expect(products.run).toMatchObject({
      status: 'succeeded',
      rows_read: 3,
      rows_inserted: 2,
      rows_rejected: 1,
    });
    expect(products.rejects[0]).toMatchObject({ key: 'V9999' });
    const variants = await sql<Row>`SELECT v.sku, v.supplier_sku, v.color_name FROM aplt_product_variants v
      JOIN aplt_products p ON p.id = v.product_id WHERE p.supplier_code = '02' ORDER BY v.sku`.execute(
      aplt.db,
    );
    expect(variants.rows).toEqual([
      { sku: 'P436_001-02.005', supplier_sku: 'P436.005', color_name: 'Blauw' },
      { sku: 'P436_001-02.009', supplier_sku: 'P436.009', color_name: 'Groen' },
      { sku: 'V4321-02.01', supplier_sku: 'V4321-01', color_name: 'Zwart' },
    ]);
    const stock = await run('02_stock');
    expect(stock.run).toMatchObject({ status: 'succeeded', rows_inserted: 3, rows_rejected: 1 });
    expect(stock.rejects.map((r) => r.key)).toEqual(['X000-UNKNOWN']);
    const prices = await run('02_prices');
    expect(prices.run).toMatchObject({ status: 'succeeded', rows_rejected: 1 });
    const tiers =
      await sql<Row>`SELECT min_quantity, price::text FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
      WHERE p.sku = 'P436_001-02' AND x.variant_id IS NULL AND price_list = 'purchase' ORDER BY min_quantity`.execute(
        aplt.db,
      );
    expect(tiers.rows.map((t: Row) => [t.min_quantity, t.price])).toEqual([
      [50, '0.6500'],
      [100, '0.5800'],
      [250, '0.5200'],
      [500, '0.4700'],
      [1000, '0.4300'],
      [2500, '0.4000'],
    ]);
    const print = await run('02_printdata');
    expect(print.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const pos =
      await sql<Row>`SELECT p.sku, pp.position_code, pp.print_area, array_agg(t.code ORDER BY t.code) AS techniques
      FROM aplt_print_positions pp JOIN aplt_products p ON p.id = pp.product_id
      JOIN aplt_product_techniques pt ON pt.print_position_id = pp.id JOIN aplt_techniques t ON t.id = pt.technique_id
      WHERE p.supplier_code = '02' GROUP BY p.sku, pp.position_code, pp.print_area ORDER BY p.sku, pp.position_code`.execute(
        aplt.db,
      );
    expect(pos.rows).toEqual([
      { sku: 'P436_001-02', position_code: 'Barrel', print_area: '45x7', techniques: ['02-LAS', '02-PAD'] },
      { sku: 'V4321-02', position_code: 'Back', print_area: '60x80', techniques: ['02-DIG'] },
      { sku: 'V4321-02', position_code: 'Front', print_area: '60x80', techniques: ['02-SCR'] },
    ]);
    // Each technique keeps its own size at the position; the position has the largest (laser's 45x7).
    const sizes =
      await sql<Row>`SELECT t.code, pt.print_area, pt.max_width_mm::text AS w FROM aplt_product_techniques pt
      JOIN aplt_techniques t ON t.id = pt.technique_id JOIN aplt_products p ON p.id = pt.product_id
      WHERE p.sku = 'P436_001-02' ORDER BY t.code`.execute(aplt.db);
    expect(sizes.rows).toEqual([
      { code: '02-LAS', print_area: '45x7', w: '45.00' },
      { code: '02-PAD', print_area: '40x7', w: '40.00' },
    ]);
    const small =
      await sql<Row>`SELECT small_order_charge::text FROM aplt_technique_pricing tp JOIN aplt_techniques t ON t.id = tp.technique_id
      WHERE t.code = '02-LAS' AND min_quantity = 1`.execute(aplt.db);
    expect(small.rows[0]!.small_order_charge).toBe('25.00');
  });

  it('imports the Makito-style XML feeds (print-job price list with cliche and amountunder tiers)', async () => {
    expect((await run('03_products')).run).toMatchObject({ status: 'succeeded', rows_inserted: 2 });
    const stock = await run('03_stock');
    expect(stock.run).toMatchObject({ rows_inserted: 3, rows_rejected: 1 });
    const arrival =
      await sql<Row>`SELECT next_arrival_date FROM aplt_stock WHERE sku = '3095-03.AZU'`.execute(aplt.db);
    expect(arrival.rows[0]!.next_arrival_date).toBe('2026-12-01');
    expect((await run('03_prices')).run).toMatchObject({ status: 'succeeded', rows_inserted: 2 });
    const print = await run('03_printdata');
    expect(print.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const tiers =
      await sql<Row>`SELECT min_quantity, price_per_unit::text, next_colour_price::text, setup_cost::text, setup_repeat_cost::text
      FROM aplt_technique_pricing tp JOIN aplt_techniques t ON t.id = tp.technique_id WHERE t.code = '03-T1' ORDER BY min_quantity`.execute(
        aplt.db,
      );
    expect(tiers.rows).toEqual([
      {
        min_quantity: 50,
        price_per_unit: '0.3000',
        next_colour_price: '0.2000',
        setup_cost: '30.00',
        setup_repeat_cost: '15.00',
      },
      {
        min_quantity: 250,
        price_per_unit: '0.2400',
        next_colour_price: '0.1500',
        setup_cost: '30.00',
        setup_repeat_cost: '15.00',
      },
      {
        min_quantity: 1000,
        price_per_unit: '0.1900',
        next_colour_price: '0.1000',
        setup_cost: '30.00',
        setup_repeat_cost: '15.00',
      },
    ]);
    const areas = await sql<Row>`SELECT position_code, position_name, print_area FROM aplt_print_positions pp
      JOIN aplt_products p ON p.id = pp.product_id WHERE p.sku = '3095-03' ORDER BY position_code`.execute(
      aplt.db,
    );
    expect(areas.rows).toEqual([
      { position_code: '1', position_name: 'Clip', print_area: '30x5' },
      { position_code: '2', position_name: 'Body', print_area: '45x7' },
    ]);
    // On the clip, printjob T1 allows 30x5 and laser (L) 25x5: each technique keeps its own.
    const clip = await sql<Row>`SELECT t.code, pt.print_area FROM aplt_product_techniques pt
      JOIN aplt_techniques t ON t.id = pt.technique_id JOIN aplt_print_positions pp ON pp.id = pt.print_position_id
      JOIN aplt_products p ON p.id = pt.product_id WHERE p.sku = '3095-03' AND pp.position_code = '1' ORDER BY t.code`.execute(
      aplt.db,
    );
    expect(clip.rows).toEqual([
      { code: '03-L', print_area: '25x5' },
      { code: '03-T1', print_area: '30x5' },
    ]);
  });

  it('imports the all-strings PF-style JSON feeds', async () => {
    for (const kind of ['products', 'stock', 'prices', 'printdata']) {
      expect((await run(`06_${kind}`)).run, kind).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    }
    const nb = await sql<Row>`SELECT p.retail_price_100::text, s.quantity FROM aplt_products p
      JOIN aplt_stock s ON s.sku = 'PF-1101-06.01' WHERE p.sku = 'PF-1101-06'`.execute(aplt.db);
    expect(nb.rows[0]).toEqual({ retail_price_100: '4.4100', quantity: 1250 });
  });

  it('a run that fails half-way (broken feed) leaves the previous data intact', async () => {
    const before = await sql<Row>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db);
    // Valid rows first (several batches), then the file breaks off mid-record.
    const broken = join(scratch, 'broken-stock.json');
    await writeFile(
      broken,
      '{"stock": [{"sku": "P436.005", "qty": 1}, {"sku": "P436.009", "qty": 2}, {"sku": "V4321-01", "qty": 3}, {"sku": "P43',
    );
    await sql`UPDATE aplt_suppliers SET feed_format = 'json', settings = jsonb_set(settings, '{feeds,stock}', ${JSON.stringify(broken)}::jsonb) WHERE code = '02'`.execute(
      aplt.db,
    );
    const failed = await run('02_stock');
    expect(failed.run.status).toBe('failed');
    expect(failed.run.error).toBeTruthy();
    expect((await sql<Row>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db)).rows).toEqual(
      before.rows,
    );

    const brokenXml = join(scratch, 'broken-stock.xml');
    await writeFile(
      brokenXml,
      '<stocks><product><refct>3095AZU</refct><stock>1</stock></product><product><refct>3095ROJ</refct><sto',
    );
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,stock}', ${JSON.stringify(brokenXml)}::jsonb) WHERE code = '03'`.execute(
      aplt.db,
    );
    const failedXml = await run('03_stock');
    expect(failedXml.run.status).toBe('failed');
    expect((await sql<Row>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db)).rows).toEqual(
      before.rows,
    );

    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,stock}', '"/nonexistent/feed.json"') WHERE code = '02'`.execute(
      aplt.db,
    );
    const missing = await run('02_stock');
    expect(missing.run).toMatchObject({ status: 'failed', error: expect.stringContaining('nonexistent') });
  });

  /** Points a feed of supplier 06 (JSON mapping) at a scratch file with `content`. */
  const feed06 = async (kind: string, content: unknown) => {
    const path = join(scratch, `06-${kind}-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(path, JSON.stringify(content, null, 1));
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, ${`{feeds,${kind}}`}::text[], ${JSON.stringify(path)}::jsonb)
      WHERE code = '06'`.execute(aplt.db);
  };
  const pf = (code: string, name: string, extra: object = {}) => ({
    master_code: code,
    product_name: { nl: name, en: `${name} (en)` },
    long_description: { nl: `Beschrijving van ${name}` },
    variants: [{ variant_id: `${code}-v`, sku: `${code}-01`, color_code: '01', color_description: 'Zwart' }],
    ...extra,
  });
  /** A print-data technique without scales, and a 30 x 8 mm position that allows it. */
  const p1Technique = { id: 'P1', description: 'Tampondruk', pricing_type: 'NumberOfColours', var_costs: [] };
  const p1Position = (position_id: string) => ({
    position_id,
    print_size_unit: 'mm',
    max_print_size_width: '30',
    max_print_size_height: '8',
    printing_techniques: [{ id: 'P1', default: true, max_colours: '2' }],
  });

  it('keeps nothing of a products feed that breaks off', async () => {
    const before = await sql<Row>`SELECT sku, name_nl FROM aplt_products ORDER BY sku`.execute(aplt.db);
    // Five whole products (chunks of two are written meanwhile), then the file breaks off mid-record.
    const records = ['PF-3001', 'PF-3002', 'PF-3003', 'PF-3004', 'PF-3005'].map((c) =>
      JSON.stringify(pf(c, `Product ${c}`)),
    );
    const broken = join(scratch, 'broken-products.json');
    await writeFile(broken, `[${records.join(',')},{"master_code": "PF-30`);
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,products}', ${JSON.stringify(broken)}::jsonb)
      WHERE code = '06'`.execute(aplt.db);
    const failed = await run('06_products');
    expect(failed.run).toMatchObject({ status: 'failed', rows_inserted: 0 });
    expect(
      (await sql<Row>`SELECT sku, name_nl FROM aplt_products ORDER BY sku`.execute(aplt.db)).rows,
    ).toEqual(before.rows);
    const found = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM aplt_skus WHERE sku LIKE 'PF-300%'`.execute(aplt.db);
    expect(found.rows[0]!.n).toBe(0);
  });

  it('stages products through COPY: a duplicate and a row the database refuses are reported alone', async () => {
    await feed06('products', [
      pf('PF-2001', 'Bidon Zephyr'),
      pf('PF-2002', 'Lanyard Basic', { number_of_print_positions: '-1' }), // CHECK (>= 0) refuses it
      pf('PF-2003', 'Sleutelhanger Xylofoon'),
      pf('PF-2001', 'Bidon Zephyr (again)'),
      pf('PF-1101', 'Notitieboek A5', {
        product_name: { nl: 'Notitieboek A5', en: 'Notebook A5', de: 'Notizbuch A5' },
        long_description: undefined,
        brand: 'Pf Concept',
        printable: 'true',
        number_of_print_positions: '2',
        category_code: 'office',
        variants: [
          {
            variant_id: '1',
            sku: 'PF-1101-01',
            color_code: '01',
            color_description: 'Zwart',
            gtin: '8710000000017',
          },
        ],
      }),
    ]);
    const r = await run('06_products');
    expect(r.run).toMatchObject({
      status: 'succeeded',
      rows_read: 5,
      rows_inserted: 2,
      rows_updated: 0,
      rows_rejected: 2,
      metadata: { unchanged: 1, search_indexed: 2 },
    });
    expect(r.rejects.map((x) => [x.row_number, x.key])).toEqual([
      [2, 'PF-2002'],
      [4, 'PF-2001'],
    ]);
    expect(r.rejects[0]!.reason).toMatch(/refused by the database: .*number_of_print_positions/);
    expect(r.rejects[1]!.reason).toMatch(/duplicate: row 1/);
    const skus = await sql<Row>`SELECT s.sku, s.variant_id IS NULL AS base FROM aplt_skus s
      JOIN aplt_products p ON p.id = s.product_id WHERE p.sku IN ('PF-2001-06', 'PF-2003-06') ORDER BY s.sku`.execute(
      aplt.db,
    );
    expect(skus.rows).toEqual([
      { sku: 'PF-2001-06', base: true },
      { sku: 'PF-2001-06.01', base: false },
      { sku: 'PF-2003-06', base: true },
      { sku: 'PF-2003-06.01', base: false },
    ]);
    const name = await sql<Row>`SELECT name_nl FROM aplt_products WHERE sku = 'PF-2001-06'`.execute(aplt.db);
    expect(name.rows[0]!.name_nl).toBe('Bidon Zephyr');
  });

  it('keeps the search index in step: new and renamed products are findable when the run succeeds', async () => {
    // Prices make the new products sellable (the store lists only those).
    await feed06('prices', {
      currency: 'EUR',
      price: ['PF-1101-01', 'PF-2001-01', 'PF-2003-01'].map((sku) => ({ sku, price: '1,00' })),
    });
    expect((await run('06_prices')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const store = (q: string) =>
      listStoreProducts(aplt.db, { q, lang: 'nl', quantity: 100, limit: 10, offset: 0 }).then((r) =>
        r.rows.map((x: { sku: string }) => x.sku),
      );
    expect(await store('zephyr')).toEqual(['PF-2001-06']);
    expect(await store('beschrijving xylofoon')).toEqual(['PF-2003-06']);
    // A price run changes the product rows but not their text: the refresh does not even look at
    // their documents (neither indexed_at nor source_updated_at moves).
    const indexedAt = async () =>
      (
        await sql<Row>`SELECT s.indexed_at::text || ' ' || s.source_updated_at::text AS at
          FROM aplt_product_search s JOIN aplt_products p ON p.id = s.product_id
          WHERE p.sku = 'PF-2001-06'`.execute(aplt.db)
      ).rows[0]!.at;
    const before = await indexedAt();
    await sql`SELECT aplt_refresh_product_search()`.execute(aplt.db);
    expect(await indexedAt()).toBe(before);

    await feed06('products', [pf('PF-2001', 'Bidon Quasar'), pf('PF-2003', 'Sleutelhanger Xylofoon')]);
    const renamed = await run('06_products');
    expect(renamed.run).toMatchObject({
      status: 'succeeded',
      rows_updated: 1,
      metadata: { unchanged: 1, search_indexed: 1 },
    });
    expect(await store('quasar')).toEqual(['PF-2001-06']);
    expect(await store('zephyr')).toEqual([]);
  });

  it('skips a products record it wrote last time, unless the product, its variants or its categories changed since', async () => {
    const records = [pf('PF-4001', 'Pen Alpha'), pf('PF-4002', 'Mok Beta', { category_code: 'pf-later' })];
    await feed06('products', records);
    expect((await run('06_products')).run).toMatchObject({ status: 'succeeded', rows_inserted: 2 });
    const state = async () =>
      (
        await sql<Row>`SELECT p.sku, p.name_nl, p.feed_fingerprint IS NOT NULL AS fingerprinted,
            (SELECT string_agg(v.sku || ' ' || coalesce(v.color_name, '-'), ', ' ORDER BY v.sku)
             FROM aplt_product_variants v WHERE v.product_id = p.id) AS variants,
            (SELECT string_agg(c.code, ', ') FROM aplt_category_mappings m JOIN aplt_categories c ON c.id = m.category_id
             WHERE m.product_id = p.id) AS categories
          FROM aplt_products p WHERE p.sku IN ('PF-4001-06', 'PF-4002-06') ORDER BY p.sku`.execute(aplt.db)
      ).rows;
    const imported = await state();
    expect(imported).toEqual([
      {
        sku: 'PF-4001-06',
        name_nl: 'Pen Alpha',
        fingerprinted: true,
        variants: 'PF-4001-06.01 Zwart',
        categories: null,
      },
      {
        sku: 'PF-4002-06',
        name_nl: 'Mok Beta',
        fingerprinted: true,
        variants: 'PF-4002-06.01 Zwart',
        categories: null,
      },
    ]);
    const again = () => run('06_products').then((r) => r.run);
    expect(await again()).toMatchObject({ rows_inserted: 0, rows_updated: 0, metadata: { unchanged: 2 } });

    // Edited by hand between two runs: the product's name, the other's variant. The unchanged feed
    // writes both back, as it did before records were skipped.
    await sql`UPDATE aplt_products SET name_nl = 'Met de hand' WHERE sku = 'PF-4001-06'`.execute(aplt.db);
    await sql`UPDATE aplt_product_variants SET color_name = 'Rood' WHERE sku = 'PF-4002-06.01'`.execute(
      aplt.db,
    );
    expect(await again()).toMatchObject({ rows_updated: 2, metadata: { unchanged: 0 } });
    expect(await state()).toEqual(imported);
    // A deleted variant comes back; a category created since gets its product though its record is unchanged.
    await sql`DELETE FROM aplt_product_variants WHERE sku = 'PF-4001-06.01'`.execute(aplt.db);
    await sql`INSERT INTO aplt_categories (code, slug, name_nl) VALUES ('pf-later', 'pf-later', 'Later')`.execute(
      aplt.db,
    );
    expect(await again()).toMatchObject({ rows_updated: 1, metadata: { unchanged: 1 } });
    expect(await state()).toEqual([imported[0], { ...imported[1], categories: 'pf-later' }]);
    expect(await again()).toMatchObject({ rows_updated: 0, metadata: { unchanged: 2 } });

    // Only a variant changed in the feed: it is written, and then the record is skipped again.
    await feed06('products', [
      records[0],
      pf('PF-4002', 'Mok Beta', {
        category_code: 'pf-later',
        variants: [
          { variant_id: 'PF-4002-v', sku: 'PF-4002-01', color_code: '01', color_description: 'Blauw' },
        ],
      }),
    ]);
    expect(await again()).toMatchObject({ rows_updated: 1, metadata: { unchanged: 1 } });
    expect((await state())[1]).toMatchObject({ variants: 'PF-4002-06.01 Blauw', fingerprinted: true });
    expect(await again()).toMatchObject({ rows_updated: 0, metadata: { unchanged: 2 } });
  });

  it('stock: unknown SKUs (set-based) and repeated SKUs (while staging) are rejected, unchanged rows are not rewritten', async () => {
    const stock = (qty: number, more: object[] = []) => ({
      stock: [
        { sku: 'PF-2001-01', qty },
        { sku: 'NOPE-01', qty: 1 },
        { sku: 'PF-2003-01', qty: 7 },
        { sku: 'PF-2001-01', qty: 99 },
        ...more,
      ],
    });
    await feed06('stock', stock(5));
    const first = await run('06_stock');
    expect(first.run).toMatchObject({
      status: 'succeeded',
      rows_read: 4,
      rows_inserted: 2,
      rows_rejected: 2,
    });
    expect(first.rejects.map((x) => [x.row_number, x.key])).toEqual([
      [2, 'NOPE-01'],
      [4, 'PF-2001-01'],
    ]);
    expect(first.rejects[0]!.reason).toMatch(/unknown SKU/);
    expect(first.rejects[1]!.reason).toBe('duplicate: row 1 of the feed already gives stock for PF-2001-01');
    const synced = async () =>
      (
        await sql<Row>`SELECT sku, quantity, updated_at::text FROM aplt_stock WHERE sku LIKE 'PF-200%' ORDER BY sku`.execute(
          aplt.db,
        )
      ).rows;
    const before = await synced();
    expect(before.map((x: Row) => [x.sku, x.quantity])).toEqual([
      ['PF-2001-06.01', 5],
      ['PF-2003-06.01', 7],
    ]);
    // A SKU without stock (the product code PF-2003 names the product itself) beside the two with
    // stock: the first run's one INSERT of everything is refused, and the rows are compared.
    await feed06('stock', stock(6, [{ sku: 'PF-2003', qty: 3 }]));
    const second = await run('06_stock');
    expect(second.run).toMatchObject({ rows_inserted: 1, rows_updated: 1, metadata: { unchanged: 1 } });
    const after = await synced();
    expect(after.map((x: Row) => [x.sku, x.quantity])).toEqual([
      ['PF-2001-06.01', 6],
      ['PF-2003-06', 3],
      ['PF-2003-06.01', 7],
    ]);
    expect(after[2]!.updated_at).toBe(before[1]!.updated_at);
  });

  it('prices: a tier the feed no longer lists is deleted, for the products the feed prices only', async () => {
    const tiers = async (sku: string) =>
      (
        await sql<Row>`SELECT x.price_list, x.min_quantity, x.variant_id IS NULL AS product_wide
          FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
          WHERE p.sku = ${sku} ORDER BY product_wide, x.price_list, x.min_quantity`.execute(aplt.db)
      ).rows.map((t: Row) => `${t.product_wide ? 'product' : 'variant'} ${t.price_list} ${t.min_quantity}`);
    const scales = (...qs: number[]) => qs.map((q) => ({ minimum_quantity: String(q), price: '1,00' }));
    await feed06('prices', {
      currency: 'EUR',
      price: [
        { sku: 'PF-2001-01', scale: scales(1, 100, 500) },
        { sku: 'PF-2003-01', scale: scales(1, 250) },
      ],
    });
    expect((await run('06_prices')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    expect(await tiers('PF-2001-06')).toEqual([
      'variant purchase 1',
      'variant purchase 100',
      'variant purchase 500',
      'variant retail 1',
      'variant retail 100',
      'variant retail 500',
      'product purchase 1',
      'product purchase 100',
      'product purchase 500',
      'product retail 1',
      'product retail 100',
      'product retail 500',
    ]);
    // The next feed drops the 500 tier of PF-2001 and does not mention PF-2003 at all.
    await feed06('prices', { currency: 'EUR', price: [{ sku: 'PF-2001-01', scale: scales(1, 100) }] });
    expect((await run('06_prices')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    expect(await tiers('PF-2001-06')).toEqual([
      'variant purchase 1',
      'variant purchase 100',
      'variant retail 1',
      'variant retail 100',
      'product purchase 1',
      'product purchase 100',
      'product retail 1',
      'product retail 100',
    ]);
    expect(await tiers('PF-2003-06')).toHaveLength(8);
  });

  it('prices: unchanged tiers are not rewritten, bad records go to the reject report, the rest is written', async () => {
    // Row versions of every tier and of the product: an unchanged feed must leave them as they are.
    const versions = async (sku: string) =>
      (
        await sql<{
          tier: string;
          price: string;
          xmin: string;
        }>`SELECT x.price_list || ' ' || x.min_quantity || (CASE WHEN x.variant_id IS NULL THEN ' product' ELSE ' variant' END)
            AS tier, x.price::text, x.xmin::text AS xmin
          FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
          WHERE p.sku = ${sku} ORDER BY tier`.execute(aplt.db)
      ).rows;
    const productVersion = async (sku: string) =>
      (
        await sql<{
          xmin: string;
          r: string;
        }>`SELECT xmin::text AS xmin, retail_price_100::text AS r FROM aplt_products WHERE sku = ${sku}`.execute(
          aplt.db,
        )
      ).rows[0];
    const scales = (...qs: Array<[number, string]>) =>
      qs.map(([q, price]) => ({ minimum_quantity: String(q), price }));
    await feed06('prices', {
      currency: 'EUR',
      price: [{ sku: 'PF-2001-01', scale: scales([1, '1,00'], [100, '1,00']) }],
    });
    expect((await run('06_prices')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const before = await versions('PF-2001-06');
    const productBefore = await productVersion('PF-2001-06');
    const other = await versions('PF-2003-06');
    const cheap = await versions('PF-1101-06');
    expect(cheap.length).toBeGreaterThan(0);
    expect(before).toHaveLength(8);

    await feed06('prices', {
      currency: 'EUR',
      price: [
        { sku: 'PF-2001-01', scale: scales([1, '1,00'], [100, '1,00']) },
        { sku: 'PF-2003-01', scale: scales([1, '-1,00']) },
        { sku: 'NOPE-01', price: '1,00' },
        { sku: 'PF-2001-01', scale: scales([1, '0,50']) },
        { sku: 'PF-1101-01', price: '99999999999,00' },
      ],
    });
    const bad = await run('06_prices');
    expect(bad.run).toMatchObject({
      status: 'succeeded',
      rows_read: 5,
      rows_inserted: 0,
      rows_updated: 0,
      rows_rejected: 4,
      metadata: { unchanged: 1 },
    });
    expect(bad.rejects.map((x) => [x.row_number, x.key])).toEqual([
      [2, 'PF-2003-01'],
      [3, 'NOPE-01'],
      [4, 'PF-2001-01'],
      [5, 'PF-1101-01'],
    ]);
    expect(bad.rejects[0]!.reason).toMatch(/invalid price/);
    expect(bad.rejects[0]!.raw).toMatchObject({ supplierSku: 'PF-2003-01', scales: [{ minQuantity: 1 }] });
    expect(bad.rejects[1]!.reason).toMatch(/unknown product/);
    expect(bad.rejects[2]!.reason).toMatch(/duplicate/);
    // Rows the database refuses (here: a price beyond numeric(14,4)) are isolated and reported too.
    expect(bad.rejects[3]!.reason).toMatch(/refused by the database: .*overflow/);
    // Nothing was rewritten: same row versions for the unchanged tiers and product, and the
    // rejected records left their products' tiers alone.
    expect(await versions('PF-2001-06')).toEqual(before);
    expect(await productVersion('PF-2001-06')).toEqual(productBefore);
    expect(await versions('PF-2003-06')).toEqual(other);
    expect(await versions('PF-1101-06')).toEqual(cheap);

    // One changed scale rewrites that scale's rows (and the product-wide tier derived from it) only.
    await feed06('prices', {
      currency: 'EUR',
      price: [{ sku: 'PF-2001-01', scale: scales([1, '1,00'], [100, '0,90']) }],
    });
    expect((await run('06_prices')).run).toMatchObject({
      status: 'succeeded',
      rows_updated: 1,
      rows_rejected: 0,
      metadata: { unchanged: 0 },
    });
    const after = await versions('PF-2001-06');
    for (const [i, t] of after.entries()) {
      if (t.tier.includes(' 100 ')) {
        expect(t.xmin).not.toBe(before[i]!.xmin);
        expect(t.price).toBe(t.tier.startsWith('purchase') ? '0.9000' : '1.2600');
      } else expect(t).toEqual(before[i]);
    }
    expect((await productVersion('PF-2001-06'))!.r).toBe('1.2600');
  });

  it('prices: a record with an invalid currency, a quantity below 1 or a quantity listed twice is rejected whole', async () => {
    const tiers = async () =>
      (
        await sql<Row>`SELECT p.sku, x.variant_id IS NULL AS product_wide, x.price_list, x.min_quantity, x.price::text
          FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
          WHERE p.sku IN ('PF-2001-06', 'PF-2003-06', 'PF-1101-06') ORDER BY 1, 2, 3, 4`.execute(aplt.db)
      ).rows;
    const before = await tiers();
    const scale = (q: string, price: string) => ({ minimum_quantity: q, price });
    await feed06('prices', {
      currency: 'EUR',
      price: [
        { sku: 'PF-2001-01', currency: 'euro', scale: [scale('1', '1,00')] },
        { sku: 'PF-2003-01', scale: [scale('1', '1,00'), scale('0', '0,50')] },
        { sku: 'PF-1101-01', scale: [scale('100', '1,00'), scale('1', '2,00'), scale('100', '0,90')] },
      ],
    });
    const r = await run('06_prices');
    expect(r.run).toMatchObject({ status: 'succeeded', rows_read: 3, rows_rejected: 3, rows_inserted: 0 });
    expect(r.rejects.map((x) => [x.row_number, x.key, x.reason])).toEqual([
      [1, 'PF-2001-01', 'invalid currency: EURO'],
      [2, 'PF-2003-01', 'invalid minimum quantity: below 1'],
      [3, 'PF-1101-01', 'invalid scales: a minimum quantity is listed twice'],
    ]);
    // The report shows each record's scales in quantity order, at the purchase price.
    expect(r.rejects[2]!.raw).toMatchObject({
      supplierSku: 'PF-1101-01',
      currency: 'EUR',
      scales: [
        { minQuantity: 1, price: 2 },
        { minQuantity: 100, price: 1 },
        { minQuantity: 100, price: 0.9 },
      ],
    });
    expect(await tiers()).toEqual(before);
  });

  it('prices and stock: a row another transaction adds while the run inserts it is updated, not refused', async () => {
    // Another writer (staff editing the product) inserts the very tier and stock row the run is
    // about to add, and commits while the run's INSERT waits on it: the run writes them anyway.
    const v = (
      await sql<{ product_id: string; variant_id: string; sku: string }>`SELECT product_id::text,
        id::text AS variant_id, sku FROM aplt_product_variants WHERE supplier_sku = 'PF-1101-01'`.execute(
        aplt.db,
      )
    ).rows[0]!;
    const racing = async (
      connector: string,
      insert: { execute: (db: Transaction<ApltDatabase>) => unknown },
    ) => {
      let pending: ReturnType<typeof run> | undefined;
      await aplt.db.transaction().execute(async (trx) => {
        await insert.execute(trx);
        pending = run(connector);
        await waitForLockWaiter(aplt.db);
      });
      return pending!;
    };
    // Twice: a product without tiers (its tiers are inserted without comparing), then the same
    // product priced (the run compares) when the feed adds a scale.
    const racePrices = async (scales: Array<[string, string]>, raced: number) => {
      await feed06('prices', {
        currency: 'EUR',
        price: [{ sku: 'PF-1101-01', scale: scales.map(([q, price]) => ({ minimum_quantity: q, price })) }],
      });
      const prices = await racing(
        '06_prices',
        sql`INSERT INTO aplt_product_prices (product_id, variant_id, price_list, min_quantity, price)
          VALUES (${v.product_id}, ${v.variant_id}, 'retail', ${raced}, 9)`,
      );
      expect(prices.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
      return (
        await sql<Row>`SELECT min_quantity, price_list, price::text FROM aplt_product_prices
          WHERE variant_id = ${v.variant_id} ORDER BY min_quantity, price_list`.execute(aplt.db)
      ).rows;
    };
    /** The variant's tiers as read back: per scale its purchase and (40 % up) retail row. */
    const written = (...scales: Array<[number, string, string]>) =>
      scales.flatMap(([q, purchase, retail]) => [
        { min_quantity: q, price_list: 'purchase', price: purchase },
        { min_quantity: q, price_list: 'retail', price: retail },
      ]);
    await sql`DELETE FROM aplt_product_prices WHERE product_id = ${v.product_id}`.execute(aplt.db);
    expect(
      await racePrices(
        [
          ['1', '2,00'],
          ['250', '1,50'],
        ],
        250,
      ),
    ).toEqual(written([1, '2.0000', '2.8000'], [250, '1.5000', '2.1000']));
    expect(
      await racePrices(
        [
          ['1', '2,00'],
          ['250', '1,50'],
          ['500', '1,00'],
        ],
        500,
      ),
    ).toEqual(written([1, '2.0000', '2.8000'], [250, '1.5000', '2.1000'], [500, '1.0000', '1.4000']));

    await feed06('stock', { stock: [{ sku: 'PF-1101-01', qty: 42 }] });
    await sql`DELETE FROM aplt_stock WHERE sku = ${v.sku}`.execute(aplt.db);
    const stock = await racing('06_stock', sql`INSERT INTO aplt_stock (sku, quantity) VALUES (${v.sku}, 1)`);
    expect(stock.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const row = await sql<Row>`SELECT quantity FROM aplt_stock WHERE sku = ${v.sku}`.execute(aplt.db);
    expect(row.rows).toEqual([{ quantity: 42 }]);
  });

  it('prices: a first run over unpriced products writes what a run that compares writes', async () => {
    // A run whose products have no tiers yet inserts without comparing; a later run compares.
    const variants = (code: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        variant_id: `${code}-v${i + 1}`,
        sku: `${code}-0${i + 1}`,
        color_code: `0${i + 1}`,
        color_description: `Kleur ${i + 1}`,
      }));
    await feed06('products', [
      pf('PF-4001', 'Pen Orion', { variants: variants('PF-4001', 2) }),
      pf('PF-4002', 'Mok Lyra'),
      pf('PF-4003', 'Tas Vega', { variants: variants('PF-4003', 2) }),
    ]);
    expect((await run('06_products')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const scales = (...qs: Array<[number, string]>) =>
      qs.map(([q, price]) => ({ minimum_quantity: String(q), price }));
    await feed06('prices', {
      currency: 'EUR',
      price: [
        { sku: 'PF-4001-01', scale: scales([1, '2,00'], [100, '1,50'], [500, '1,00']) },
        { sku: 'PF-4001-02', scale: scales([1, '1,80'], [100, '1,60'], [250, '1,20']) },
        // Priced as a whole (by product code) only.
        { sku: 'PF-4002', scale: scales([50, '3,00'], [200, '2,00']) },
        // Priced as a whole and by a variant: the variant's tiers make the product-wide ones.
        { sku: 'PF-4003', scale: scales([1, '9,00']) },
        { sku: 'PF-4003-01', scale: scales([1, '5,00']) },
      ],
    });
    const state = async () => ({
      tiers: (
        await sql<Row>`SELECT p.sku, v.sku AS variant, x.price_list, x.min_quantity, x.price::text, x.currency,
            x.valid_until::text
          FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
          LEFT JOIN aplt_product_variants v ON v.id = x.variant_id
          WHERE p.sku LIKE 'PF-400%' ORDER BY 1, 2 NULLS FIRST, 3, 4`.execute(aplt.db)
      ).rows,
      products: (
        await sql<Row>`SELECT sku, retail_price_100::text AS retail, purchase_price::text AS purchase
          FROM aplt_products WHERE sku LIKE 'PF-400%' ORDER BY sku`.execute(aplt.db)
      ).rows,
    });
    const first = await run('06_prices');
    expect(first.run).toMatchObject({
      status: 'succeeded',
      rows_inserted: 5,
      rows_updated: 0,
      rows_rejected: 0,
    });
    const written = await state();
    const productWide = (sku: string, list: string) =>
      written.tiers
        .filter((t) => t.sku === sku && t.variant === null && t.price_list === list)
        .map((t) => `${String(t.min_quantity)}: ${String(t.price)}`);
    // The cheapest variant per scale, with scales only one variant has.
    expect(productWide('PF-4001-06', 'purchase')).toEqual([
      '1: 1.8000',
      '100: 1.5000',
      '250: 1.2000',
      '500: 1.0000',
    ]);
    expect(productWide('PF-4002-06', 'purchase')).toEqual(['50: 3.0000', '200: 2.0000']);
    expect(productWide('PF-4003-06', 'purchase')).toEqual(['1: 5.0000']);
    expect(written.tiers).toHaveLength(2 * (3 + 3 + 4 + 2 + 1 + 1));
    expect(written.products).toEqual([
      { sku: 'PF-4001-06', retail: '2.1000', purchase: '1.5000' },
      { sku: 'PF-4002-06', retail: '4.2000', purchase: '3.0000' },
      { sku: 'PF-4003-06', retail: '7.0000', purchase: '5.0000' },
    ]);

    // Spoil what is there (other prices, a tier too many, no price at 100): the run that compares
    // must bring back exactly what the first run wrote.
    await sql`UPDATE aplt_product_prices x SET price = 0 FROM aplt_products p
      WHERE p.id = x.product_id AND p.sku LIKE 'PF-400%'`.execute(aplt.db);
    await sql`INSERT INTO aplt_product_prices (product_id, variant_id, price_list, min_quantity, price)
      SELECT product_id, id, 'retail', 9999, 1 FROM aplt_product_variants WHERE sku = 'PF-4001-06.01'`.execute(
      aplt.db,
    );
    await sql`UPDATE aplt_products SET retail_price_100 = NULL, purchase_price = NULL WHERE sku LIKE 'PF-400%'`.execute(
      aplt.db,
    );
    const again = await run('06_prices');
    expect(again.run).toMatchObject({
      status: 'succeeded',
      rows_inserted: 0,
      rows_updated: 5,
      rows_rejected: 0,
    });
    expect(await state()).toEqual(written);
  });

  it('print data: dropped scales and techniques are deleted, unchanged rows are not rewritten, bad records are reported', async () => {
    const technique = (id: string, ...qs: number[]) => ({
      id,
      description: `Techniek ${id}`,
      pricing_type: 'NumberOfColours',
      setup: '35,00',
      var_costs: [
        {
          area_from: '0',
          area_to: '20',
          scales: qs.map((q) => ({ minimum_quantity: String(q), price: '0,25' })),
        },
      ],
    });
    const position = (master: string, width: string, ...techniques: string[]) => ({
      master_code: master,
      printing_positions: [
        {
          position_id: 'FRONT',
          print_size_unit: 'mm',
          max_print_size_width: width,
          max_print_size_height: '8',
          printing_techniques: techniques.map((id, i) => ({ id, default: i === 0, max_colours: '2' })),
        },
      ],
    });
    const state = async () =>
      (
        await sql<Row>`
          SELECT 'scale ' || t.code || ' ' || x.min_quantity AS row, x.xmin::text AS xmin FROM aplt_technique_pricing x
            JOIN aplt_techniques t ON t.id = x.technique_id WHERE t.code IN ('06-P1', '06-L1')
          UNION ALL
          SELECT 'position ' || p.sku || ' ' || pp.position_code || ' ' || pp.print_area, pp.xmin::text FROM aplt_print_positions pp
            JOIN aplt_products p ON p.id = pp.product_id WHERE p.sku IN ('PF-2001-06', 'PF-2003-06')
          UNION ALL
          SELECT 'link ' || p.sku || ' ' || t.code, pt.xmin::text FROM aplt_product_techniques pt
            JOIN aplt_products p ON p.id = pt.product_id JOIN aplt_techniques t ON t.id = pt.technique_id
            WHERE p.sku IN ('PF-2001-06', 'PF-2003-06')
          ORDER BY 1`.execute(aplt.db)
      ).rows;
    const feed = {
      print_techniques: [technique('P1', 1, 500), technique('L1', 1)],
      products: [
        position('PF-2001', '40', 'P1', 'L1'),
        position('NOPE', '40', 'P1'),
        position('PF-2003', '-5', 'P1'),
      ],
    };
    await feed06('printdata', feed);
    const first = await run('06_printdata');
    expect(first.run).toMatchObject({
      status: 'succeeded',
      rows_read: 5,
      rows_inserted: 3,
      rows_rejected: 2,
    });
    expect(first.rejects.map((x) => [x.key, x.reason])).toEqual([
      ['NOPE', expect.stringMatching(/unknown product/)],
      ['PF-2003', expect.stringMatching(/invalid print size/)],
    ]);
    expect(first.rejects[1]!.raw).toMatchObject({
      masterCode: 'PF-2003',
      positionCode: 'FRONT',
      widthMm: '-5',
    });
    const before = await state();
    expect(before.map((r: Row) => r.row)).toEqual([
      'link PF-2001-06 06-L1',
      'link PF-2001-06 06-P1',
      'position PF-2001-06 FRONT 40x8',
      'scale 06-L1 1',
      'scale 06-P1 1',
      'scale 06-P1 500',
    ]);

    // The same feed again: nothing is rewritten.
    const again = await run('06_printdata');
    expect(again.run).toMatchObject({ rows_inserted: 0, rows_updated: 0, metadata: { unchanged: 3 } });
    expect(await state()).toEqual(before);

    // P1 drops its 500 scale, the position drops L1: both are deleted, the rest stays as it was.
    await feed06('printdata', {
      print_techniques: [technique('P1', 1), technique('L1', 1)],
      products: [position('PF-2001', '40', 'P1')],
    });
    const dropped = await run('06_printdata');
    expect(dropped.run).toMatchObject({ status: 'succeeded', rows_rejected: 0, rows_updated: 1 });
    const after = await state();
    expect(after.map((r: Row) => r.row)).toEqual([
      'link PF-2001-06 06-P1',
      'position PF-2001-06 FRONT 40x8',
      'scale 06-L1 1',
      'scale 06-P1 1',
    ]);
    for (const r of after) expect(r).toEqual(before.find((b: Row) => b.row === r.row));
  });

  it('print data: technique codes with commas, quotes, braces and backslashes link, and a reject shows its record', async () => {
    // A position's techniques are staged as array literals: every character that means something
    // to an array or to COPY must come out as the supplier wrote it.
    const odd = ['K,1', 'Q"{x}', 'B\\S', 'T\tAB'];
    const technique = (id: string) => ({
      id,
      description: `Techniek ${id}`,
      pricing_type: 'NumberOfColours',
      setup: '35,00',
      var_costs: [{ area_from: '0', area_to: '20', scales: [{ minimum_quantity: '1', price: '0,25' }] }],
    });
    const position = (master: string, ...ids: string[]) => ({
      master_code: master,
      printing_positions: [
        {
          position_id: 'SIDE',
          max_print_size_width: '20,5',
          max_print_size_height: '8',
          printing_techniques: ids.map((id, i) => ({
            id,
            default: i === 0,
            max_colours: i === 0 ? '3' : undefined,
          })),
        },
      ],
    });
    await feed06('printdata', {
      print_techniques: odd.map(technique),
      products: [position('PF-2001', ...odd), position('PF-2003', 'K,1', 'NO,PE')],
    });
    const r = await run('06_printdata');
    expect(r.run).toMatchObject({ status: 'succeeded', rows_read: 6, rows_rejected: 1 });
    const links = await sql<{ sku: string; code: string; mc: number | null; def: boolean; area: string }>`
      SELECT p.sku, t.code, pt.max_colours AS mc, pt.is_default AS def, pp.print_area AS area
      FROM aplt_product_techniques pt JOIN aplt_print_positions pp ON pp.id = pt.print_position_id
      JOIN aplt_products p ON p.id = pt.product_id JOIN aplt_techniques t ON t.id = pt.technique_id
      WHERE pp.position_code = 'SIDE' ORDER BY p.sku, t.code`.execute(aplt.db);
    expect(links.rows).toEqual(
      [
        ...odd.map((c, i) => ({ sku: 'PF-2001-06', code: `06-${c}`, mc: i === 0 ? 3 : null, def: i === 0 })),
        { sku: 'PF-2003-06', code: '06-K,1', mc: 3, def: true },
      ]
        .map((l) => ({ ...l, area: '20.5x8' }))
        .sort((a, b) => (a.sku + a.code < b.sku + b.code ? -1 : 1)),
    );
    // The unknown technique is reported; the position is written with the one that exists.
    expect(r.rejects.map((x) => [x.key, x.reason])).toEqual([['PF-2003', 'unknown technique 06-NO,PE']]);
    expect(r.rejects[0]!.raw).toEqual({
      masterCode: 'PF-2003',
      positionCode: 'SIDE',
      positionName: 'SIDE',
      widthMm: '20.5',
      heightMm: '8',
      techniques: [
        { code: '06-K,1', isDefault: true, maxColours: 3 },
        { code: '06-NO,PE', isDefault: false },
      ],
    });
  });

  it('print data: a position another transaction adds while the run inserts it is updated, not refused', async () => {
    const product = (
      await sql<{ id: string }>`SELECT id::text FROM aplt_products WHERE sku = 'PF-1101-06'`.execute(aplt.db)
    ).rows[0]!;
    // Twice: the product without positions (inserted without comparing), then with them (compared)
    // when the feed adds one.
    const race = async (listed: string[], raced: string) => {
      await feed06('printdata', {
        print_techniques: [p1Technique],
        products: [{ master_code: 'PF-1101', printing_positions: listed.map(p1Position) }],
      });
      let pending: ReturnType<typeof run> | undefined;
      await aplt.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO aplt_print_positions (product_id, position_code, position_name)
          VALUES (${product.id}, ${raced}, 'added meanwhile')`.execute(trx);
        pending = run('06_printdata');
        await waitForLockWaiter(aplt.db);
      });
      const result = await pending!;
      expect(result.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
      return (
        await sql<Row>`SELECT pp.position_code, pp.position_name, pp.print_area, t.code FROM aplt_print_positions pp
          JOIN aplt_product_techniques pt ON pt.print_position_id = pp.id JOIN aplt_techniques t ON t.id = pt.technique_id
          WHERE pp.product_id = ${product.id} ORDER BY pp.position_code`.execute(aplt.db)
      ).rows;
    };
    await sql`DELETE FROM aplt_print_positions WHERE product_id = ${product.id}`.execute(aplt.db);
    expect(await race(['BACK'], 'BACK')).toEqual([
      { position_code: 'BACK', position_name: 'BACK', print_area: '30x8', code: '06-P1' },
    ]);
    expect(await race(['BACK', 'SIDE'], 'SIDE')).toEqual([
      { position_code: 'BACK', position_name: 'BACK', print_area: '30x8', code: '06-P1' },
      { position_code: 'SIDE', position_name: 'SIDE', print_area: '30x8', code: '06-P1' },
    ]);
  });

  it('print data: a run that adds many positions refreshes their statistics, on both write paths', async () => {
    // Statistics of an empty table, as after a fresh install; the import then adds 1,200 positions
    // to products without any (inserted without comparing), then 1,200 more to the same products
    // (compared; the links join the positions just written).
    await sql`ANALYZE aplt_print_positions`.execute(aplt.db);
    const products = Array.from({ length: 600 }, (_, i) => `PF-9${String(i).padStart(3, '0')}`);
    await feed06(
      'products',
      products.map((code) => pf(code, `Pen ${code}`)),
    );
    expect((await run('06_products')).run).toMatchObject({ status: 'succeeded', rows_inserted: 600 });
    const seen = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'aplt_print_positions'`.execute(aplt.db)
      ).rows[0]!.n;
    const before = await seen();
    await feed06('printdata', {
      print_techniques: [p1Technique],
      products: products.map((master_code) => ({
        master_code,
        printing_positions: [p1Position('FRONT'), p1Position('BACK')],
      })),
    });
    expect((await run('06_printdata')).run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    expect(before).toBeLessThan(1200);
    const afterFirst = await seen();
    expect(afterFirst).toBeGreaterThanOrEqual(1200);
    expect(afterFirst).toBeLessThan(2400);
    await feed06('printdata', {
      print_techniques: [p1Technique],
      products: products.map((master_code) => ({
        master_code,
        printing_positions: ['FRONT', 'BACK', 'SIDE', 'TOP'].map(p1Position),
      })),
    });
    expect((await run('06_printdata')).run).toMatchObject({
      status: 'succeeded',
      rows_inserted: 1200,
      rows_rejected: 0,
    });
    expect(await seen()).toBeGreaterThanOrEqual(2400);
  });

  it('a supplier without a feed location fails with a clear message', async () => {
    const missing = await run('09_products');
    expect(missing.run).toMatchObject({ status: 'failed', error: expect.stringContaining('09') });
  });
});
