import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnector } from '../src/connectors/connector-registry';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun, getRun, listRejects } from '../src/connectors/sync-run.repository';
import { fixtures, seedSuppliersAndCategories } from './helpers';

const opts = { batchSize: 2, defaultMarginPercent: '40' };

describe('connector feed formats (file paths, streamed parsers, batched upserts)', () => {
  let aplt: TestPgDatabase;
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
    const variants = await sql<any>`SELECT v.sku, v.supplier_sku, v.color_name FROM aplt_product_variants v
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
      await sql<any>`SELECT min_quantity, price::text FROM aplt_product_prices x JOIN aplt_products p ON p.id = x.product_id
      WHERE p.sku = 'P436_001-02' AND x.variant_id IS NULL AND price_list = 'purchase' ORDER BY min_quantity`.execute(
        aplt.db,
      );
    expect(tiers.rows.map((t: any) => [t.min_quantity, t.price])).toEqual([
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
      await sql<any>`SELECT p.sku, pp.position_code, pp.print_area, array_agg(t.code ORDER BY t.code) AS techniques
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
    const small =
      await sql<any>`SELECT small_order_charge::text FROM aplt_technique_pricing tp JOIN aplt_techniques t ON t.id = tp.technique_id
      WHERE t.code = '02-LAS' AND min_quantity = 1`.execute(aplt.db);
    expect(small.rows[0].small_order_charge).toBe('25.00');
  });

  it('imports the Makito-style XML feeds (print-job price list with cliche and amountunder tiers)', async () => {
    expect((await run('03_products')).run).toMatchObject({ status: 'succeeded', rows_inserted: 2 });
    const stock = await run('03_stock');
    expect(stock.run).toMatchObject({ rows_inserted: 3, rows_rejected: 1 });
    const arrival =
      await sql<any>`SELECT next_arrival_date FROM aplt_stock WHERE sku = '3095-03.AZU'`.execute(aplt.db);
    expect(arrival.rows[0].next_arrival_date).toBe('2026-12-01');
    expect((await run('03_prices')).run).toMatchObject({ status: 'succeeded', rows_inserted: 2 });
    const print = await run('03_printdata');
    expect(print.run).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    const tiers =
      await sql<any>`SELECT min_quantity, price_per_unit::text, next_colour_price::text, setup_cost::text, setup_repeat_cost::text
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
    const areas = await sql<any>`SELECT position_code, position_name, print_area FROM aplt_print_positions pp
      JOIN aplt_products p ON p.id = pp.product_id WHERE p.sku = '3095-03' ORDER BY position_code`.execute(
      aplt.db,
    );
    expect(areas.rows).toEqual([
      { position_code: '1', position_name: 'Clip', print_area: '30x5' },
      { position_code: '2', position_name: 'Body', print_area: '45x7' },
    ]);
  });

  it('imports the all-strings PF-style JSON feeds', async () => {
    for (const kind of ['products', 'stock', 'prices', 'printdata']) {
      expect((await run(`06_${kind}`)).run, kind).toMatchObject({ status: 'succeeded', rows_rejected: 0 });
    }
    const nb = await sql<any>`SELECT p.retail_price_100::text, s.quantity FROM aplt_products p
      JOIN aplt_stock s ON s.sku = 'PF-1101-06.01' WHERE p.sku = 'PF-1101-06'`.execute(aplt.db);
    expect(nb.rows[0]).toEqual({ retail_price_100: '4.4100', quantity: 1250 });
  });

  it('a run that fails half-way (broken feed) leaves the previous data intact', async () => {
    const before = await sql<any>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db);
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
    expect((await sql<any>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db)).rows).toEqual(
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
    expect((await sql<any>`SELECT sku, quantity FROM aplt_stock ORDER BY sku`.execute(aplt.db)).rows).toEqual(
      before.rows,
    );

    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,stock}', '"/nonexistent/feed.json"') WHERE code = '02'`.execute(
      aplt.db,
    );
    const missing = await run('02_stock');
    expect(missing.run).toMatchObject({ status: 'failed', error: expect.stringContaining('nonexistent') });
  });

  it('a supplier without a feed location fails with a clear message', async () => {
    const missing = await run('09_products');
    expect(missing.run).toMatchObject({ status: 'failed', error: expect.stringContaining('09') });
  });
});
