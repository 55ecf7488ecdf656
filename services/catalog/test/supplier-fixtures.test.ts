import { join } from 'node:path';
import { type ApltDatabase, sql } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnector } from '../src/connectors/connector-registry';
import { RowError } from '../src/connectors/feed-rows';
import { mapJsonPrint } from '../src/connectors/mappers/json-mapper';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun, getRun, listRejects, type SyncRun } from '../src/connectors/sync-run.repository';
import { fixtures, seedSuppliersAndCategories, startFeedServer } from './helpers';

/**
 * The sample feeds of suppliers 04, 05, 07 and 09, each in its own format, through all four of
 * its connectors. 05 and 09 are fetched from a loopback feed host, 04 and 07 read from disk.
 */
const suppliers = {
  '04': { format: 'json', ext: 'json', over: 'file' },
  '05': { format: 'tsv', ext: 'tsv', over: 'http' },
  '07': { format: 'xml', ext: 'xml', over: 'file' },
  '09': { format: 'json', ext: 'json', over: 'http' },
} as const;
const kinds = ['products', 'stock', 'prices', 'printdata'] as const;

describe('sample feeds of suppliers 04, 05, 07 and 09', () => {
  let aplt: TestPgDatabase<ApltDatabase>;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;

  beforeAll(async () => {
    aplt = await createTestPgDatabase('aplt');
    feeds = await startFeedServer();
    // Categories only (01-06 suppliers come along; their feeds are not run here).
    await seedSuppliersAndCategories(aplt.db, (code) => join(fixtures, code));
    for (const [code, s] of Object.entries(suppliers)) {
      const base = s.over === 'http' ? `${feeds.url}/${code}` : join(fixtures, code);
      const settings = { feeds: Object.fromEntries(kinds.map((k) => [k, `${base}/${k}.${s.ext}`])) };
      await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
        VALUES (${code}, ${`Supplier ${code}`}, ${s.format}, ${JSON.stringify(settings)}::jsonb)`.execute(
        aplt.db,
      );
    }
  });
  afterAll(async () => {
    await feeds?.close();
    await aplt?.drop();
  });

  /** Runs the four connectors of a supplier in the order an operator would; returns each run. */
  const runAll = async (code: string) => {
    const out: Record<
      string,
      { run: SyncRun | undefined; rejects: Awaited<ReturnType<typeof listRejects>> }
    > = {};
    for (const kind of kinds) {
      const name = `${code}_${kind}`;
      const r = await createRun(aplt.db, { connector: name, supplierCode: code });
      await runConnector(aplt.db, r.id, findConnector(name)!, { batchSize: 2, defaultMarginPercent: '40' });
      out[kind] = { run: await getRun(aplt.db, r.id), rejects: await listRejects(aplt.db, r.id) };
    }
    return out;
  };
  const q = async (query: ReturnType<typeof sql>) =>
    (await query.execute(aplt.db)).rows as Array<Record<string, unknown>>;
  const products = (code: string) =>
    q(sql`SELECT p.sku, p.name_nl, p.name_en, p.is_sellable, p.purchase_price::text, p.retail_price_100::text,
        (SELECT array_agg(v.sku ORDER BY v.sku) FROM aplt_product_variants v WHERE v.product_id = p.id) AS variants
      FROM aplt_products p WHERE p.supplier_code = ${code} ORDER BY p.sku`);
  const stock = (code: string) =>
    q(sql`SELECT s.sku, s.quantity, s.next_arrival_date FROM aplt_stock s
      WHERE s.sku IN (SELECT v.sku FROM aplt_product_variants v JOIN aplt_products p ON p.id = v.product_id
        WHERE p.supplier_code = ${code}) ORDER BY s.sku`);
  const positions = (code: string) =>
    q(sql`SELECT p.sku, pp.position_code, pp.print_area, array_agg(t.code ORDER BY t.code) AS techniques
      FROM aplt_print_positions pp JOIN aplt_products p ON p.id = pp.product_id
      JOIN aplt_product_techniques pt ON pt.print_position_id = pp.id JOIN aplt_techniques t ON t.id = pt.technique_id
      WHERE p.supplier_code = ${code} GROUP BY p.sku, pp.position_code, pp.print_area ORDER BY p.sku, pp.position_code`);
  const tiers = (technique: string) =>
    q(sql`SELECT tp.area_from::text, tp.area_to::text, tp.min_quantity, tp.price_per_unit::text,
        tp.next_colour_price::text, tp.setup_cost::text
      FROM aplt_technique_pricing tp JOIN aplt_techniques t ON t.id = tp.technique_id
      WHERE t.code = ${technique} ORDER BY tp.area_from NULLS FIRST, tp.min_quantity`);

  it('04 (Midocean-style JSON in three languages): products, stock, prices and print data land', async () => {
    const runs = await runAll('04');
    for (const kind of kinds) expect(runs[kind]!.run?.status, kind).toBe('succeeded');
    expect(runs.products!.run).toMatchObject({ rows_read: 3, rows_inserted: 3, rows_rejected: 0 });
    // A discontinued SKU still in the stock feed is reported, not imported.
    expect(runs.stock!.run).toMatchObject({ rows_read: 6, rows_inserted: 5, rows_rejected: 1 });
    expect(runs.stock!.rejects.map((r) => r.key)).toEqual(['KC1999-01']);
    expect(runs.prices!.run).toMatchObject({ rows_read: 5, rows_rejected: 0 });
    expect(runs.printdata!.run).toMatchObject({ rows_rejected: 0 });

    expect(await products('04')).toEqual([
      {
        sku: 'KC2210-04',
        name_nl: 'Dubbelwandige thermosbeker 350 ml',
        name_en: 'Double wall travel mug 350 ml',
        is_sellable: true,
        purchase_price: '4.3500',
        retail_price_100: '6.0900',
        variants: ['KC2210-04.03', 'KC2210-04.16'],
      },
      {
        sku: 'KC3105-04',
        name_nl: 'Notitieboek A5 met elastiek',
        name_en: 'A5 notebook with elastic band',
        is_sellable: true,
        purchase_price: '1.8900',
        retail_price_100: '2.6460',
        variants: ['KC3105-04.05'],
      },
      {
        sku: 'KC4400-04',
        name_nl: 'Powerbank 5000 mAh',
        name_en: 'Power bank 5000 mAh',
        is_sellable: true,
        purchase_price: '7.4000',
        retail_price_100: '10.3600',
        variants: ['KC4400-04.03', 'KC4400-04.06'],
      },
    ]);
    // Only pictures become images; the declaration PDF among the digital assets does not.
    const mug = await q(sql`SELECT images FROM aplt_products WHERE sku = 'KC2210-04'`);
    expect(mug[0]!.images).toEqual([
      'https://cdn.example.test/04/kc2210-front.jpg',
      'https://cdn.example.test/04/kc2210-side.jpg',
    ]);
    expect(await stock('04')).toEqual([
      { sku: 'KC2210-04.03', quantity: 8400, next_arrival_date: '2027-01-19' },
      { sku: 'KC2210-04.16', quantity: 1260, next_arrival_date: null },
      { sku: 'KC3105-04.05', quantity: 23500, next_arrival_date: null },
      { sku: 'KC4400-04.03', quantity: 0, next_arrival_date: null },
      { sku: 'KC4400-04.06', quantity: 640, next_arrival_date: '2027-02-02' },
    ]);
    expect(await positions('04')).toEqual([
      { sku: 'KC2210-04', position_code: 'BACK', print_area: '70x50', techniques: ['04-E'] },
      { sku: 'KC2210-04', position_code: 'FRONT', print_area: '70x50', techniques: ['04-E', '04-S2'] },
      { sku: 'KC3105-04', position_code: 'COVER', print_area: '100x150', techniques: ['04-DT', '04-E'] },
      { sku: 'KC4400-04', position_code: 'FRONT', print_area: '50x30', techniques: ['04-DT'] },
    ]);
    // Priced by print area (AreaRange): one scale per area band and quantity.
    expect(await tiers('04-DT')).toEqual([
      {
        area_from: '0.00',
        area_to: '25.00',
        min_quantity: 50,
        price_per_unit: '0.9500',
        next_colour_price: null,
        setup_cost: '25.00',
      },
      {
        area_from: '0.00',
        area_to: '25.00',
        min_quantity: 250,
        price_per_unit: '0.7200',
        next_colour_price: null,
        setup_cost: '25.00',
      },
      {
        area_from: '25.01',
        area_to: '100.00',
        min_quantity: 50,
        price_per_unit: '1.4500',
        next_colour_price: null,
        setup_cost: '25.00',
      },
      {
        area_from: '25.01',
        area_to: '100.00',
        min_quantity: 250,
        price_per_unit: '1.1000',
        next_colour_price: null,
        setup_cost: '25.00',
      },
    ]);
    const dt = await q(sql`SELECT pricing_type, full_colour FROM aplt_techniques WHERE code = '04-DT'`);
    expect(dt[0]).toEqual({ pricing_type: 'area_range', full_colour: true });
  });

  it('05 (XD-style tab-separated, over HTTP): products, stock, prices and print data land', async () => {
    const runs = await runAll('05');
    for (const kind of kinds) expect(runs[kind]!.run?.status, kind).toBe('succeeded');
    // Four item lines of three models.
    expect(runs.products!.run).toMatchObject({ rows_read: 3, rows_inserted: 3, rows_rejected: 0 });
    expect(runs.stock!.run).toMatchObject({ rows_read: 5, rows_inserted: 4, rows_rejected: 1 });
    expect(runs.stock!.rejects.map((r) => r.key)).toEqual(['X119.991']);
    expect(runs.prices!.run).toMatchObject({ rows_read: 4, rows_rejected: 0 });
    expect(runs.printdata!.run).toMatchObject({ rows_read: 5, rows_rejected: 0 });

    expect(await products('05')).toEqual([
      {
        sku: 'X320_010-05',
        name_nl: 'Draadloze oplader 10W',
        name_en: 'Wireless charger 10W',
        is_sellable: true,
        purchase_price: '7.9500',
        retail_price_100: '11.1300',
        variants: ['X320_010-05.009'],
      },
      {
        sku: 'X450_200-05',
        name_nl: 'Glazen waterfles 500 ml',
        name_en: 'Glass water bottle 500 ml',
        is_sellable: true,
        purchase_price: '5.2500',
        retail_price_100: '7.3500',
        variants: ['X450_200-05.000'],
      },
      {
        sku: 'X611_140-05',
        name_nl: 'RPET laptoprugzak 15,6 inch',
        name_en: 'RPET laptop backpack 15.6 inch',
        is_sellable: true,
        purchase_price: '19.6000',
        retail_price_100: '27.4400',
        variants: ['X611_140-05.001', 'X611_140-05.002'],
      },
    ]);
    expect(await stock('05')).toEqual([
      { sku: 'X320_010-05.009', quantity: 11850, next_arrival_date: null },
      { sku: 'X450_200-05.000', quantity: 2270, next_arrival_date: null },
      { sku: 'X611_140-05.001', quantity: 3120, next_arrival_date: '2026-12-21' },
      { sku: 'X611_140-05.002', quantity: 0, next_arrival_date: '2027-01-12' },
    ]);
    expect(await positions('05')).toEqual([
      { sku: 'X320_010-05', position_code: 'Top', print_area: '60x60', techniques: ['05-LAS'] },
      { sku: 'X450_200-05', position_code: 'Body', print_area: '70x100', techniques: ['05-SCR'] },
      { sku: 'X450_200-05', position_code: 'Lid', print_area: '30x30', techniques: ['05-LAS'] },
      {
        sku: 'X611_140-05',
        position_code: 'Front pocket',
        print_area: '150x100',
        techniques: ['05-EMB', '05-TRF'],
      },
    ]);
    const transfer = await q(sql`SELECT t.pricing_type, t.full_colour, tp.small_order_charge::text
      FROM aplt_techniques t JOIN aplt_technique_pricing tp ON tp.technique_id = t.id
      WHERE t.code = '05-TRF' AND tp.min_quantity = 1`);
    expect(transfer[0]).toEqual({
      pricing_type: 'full_colour',
      full_colour: true,
      small_order_charge: '30.00',
    });
    expect(
      (await tiers('05-SCR')).map((t) => [t.min_quantity, t.price_per_unit, t.next_colour_price]),
    ).toEqual([
      [50, '0.8000', '0.4500'],
      [250, '0.5800', '0.3200'],
      [1000, '0.4400', '0.2400'],
    ]);
    expect(feeds.requests).toEqual(expect.arrayContaining(kinds.map((k) => `/05/${k}.tsv`)));
  });

  it('07 (Makito-style XML): products, stock, prices and print data land', async () => {
    const runs = await runAll('07');
    for (const kind of kinds) expect(runs[kind]!.run?.status, kind).toBe('succeeded');
    expect(runs.products!.run).toMatchObject({ rows_read: 3, rows_inserted: 3, rows_rejected: 0 });
    expect(runs.stock!.run).toMatchObject({ rows_read: 7, rows_inserted: 6, rows_rejected: 1 });
    expect(runs.stock!.rejects.map((r) => r.key)).toEqual(['8870BLA']);
    expect(runs.prices!.run).toMatchObject({ rows_read: 3, rows_rejected: 0 });
    expect(runs.printdata!.run).toMatchObject({ rows_rejected: 0 });

    expect(await products('07')).toEqual([
      {
        sku: '1029-07',
        name_nl: 'Schrijfset Rondo',
        name_en: 'Writing set Rondo',
        is_sellable: true,
        purchase_price: '3.8500',
        retail_price_100: '5.3900',
        variants: ['1029-07.AZU', '1029-07.NEG', '1029-07.PLA'],
      },
      {
        sku: '6658-07',
        name_nl: 'Opvouwbare boodschappentas',
        name_en: 'Foldable shopping bag',
        is_sellable: true,
        purchase_price: '0.7400',
        retail_price_100: '1.0360',
        variants: ['6658-07.ROJ', '6658-07.VER'],
      },
      {
        sku: '9143-07',
        name_nl: 'Glazen mok Kelvin 350 ml',
        name_en: 'Glass mug Kelvin 350 ml',
        is_sellable: true,
        purchase_price: '2.1200',
        retail_price_100: '2.9680',
        variants: ['9143-07.TRA'],
      },
    ]);
    expect(await stock('07')).toEqual([
      { sku: '1029-07.AZU', quantity: 1875, next_arrival_date: null },
      { sku: '1029-07.NEG', quantity: 2310, next_arrival_date: '2026-12-15' },
      { sku: '1029-07.PLA', quantity: 0, next_arrival_date: '2027-01-20' },
      { sku: '6658-07.ROJ', quantity: 14300, next_arrival_date: null },
      { sku: '6658-07.VER', quantity: 9870, next_arrival_date: null },
      { sku: '9143-07.TRA', quantity: 6420, next_arrival_date: null },
    ]);
    expect(await positions('07')).toEqual([
      { sku: '1029-07', position_code: '1', print_area: '50x25', techniques: ['07-G2'] },
      { sku: '1029-07', position_code: '2', print_area: '35x6', techniques: ['07-G2'] },
      { sku: '6658-07', position_code: '1', print_area: '250x200', techniques: ['07-B1'] },
      { sku: '9143-07', position_code: '1', print_area: '60x50', techniques: ['07-B1', '07-S1'] },
    ]);
    // Makito tiers: price1 from minamount, each next one from the previous amountunder.
    expect(
      (await tiers('07-B1')).map((t) => [t.min_quantity, t.price_per_unit, t.next_colour_price]),
    ).toEqual([
      [50, '0.4200', '0.3000'],
      [250, '0.3300', '0.2200'],
      [1000, '0.2600', '0.1700'],
      [5000, '0.2100', '0.1300'],
    ]);
    const setup = await q(sql`SELECT o.setup_cost::text, o.repeat_setup_cost::text FROM aplt_opstartkosten o
      JOIN aplt_techniques t ON t.id = o.technique_id WHERE t.code = '07-S1'`);
    expect(setup[0]).toEqual({ setup_cost: '45.00', repeat_setup_cost: '22.50' });
  });

  it('09 (Midocean-style JSON, one-language Dutch feed, print sizes in cm, over HTTP): all four land', async () => {
    const runs = await runAll('09');
    for (const kind of kinds) expect(runs[kind]!.run?.status, kind).toBe('succeeded');
    expect(runs.products!.run).toMatchObject({ rows_read: 3, rows_inserted: 3, rows_rejected: 0 });
    expect(runs.stock!.run).toMatchObject({ rows_read: 4, rows_inserted: 4, rows_rejected: 0 });
    expect(runs.prices!.run).toMatchObject({ rows_read: 4, rows_rejected: 0 });
    expect(runs.printdata!.run).toMatchObject({ rows_rejected: 0 });

    expect(await products('09')).toEqual([
      {
        sku: 'GV5601-09',
        name_nl: 'Katoenen draagtas 140 gr/m²',
        name_en: null,
        is_sellable: true,
        purchase_price: '1.1200',
        retail_price_100: '1.5680',
        variants: ['GV5601-09.03', 'GV5601-09.13'],
      },
      {
        sku: 'GV6120-09',
        name_nl: 'Stormparaplu 30 inch',
        name_en: null,
        is_sellable: true,
        purchase_price: '11.4000',
        retail_price_100: '15.9600',
        variants: ['GV6120-09.05'],
      },
      {
        sku: 'GV7003-09',
        name_nl: 'Bamboe sleutelhanger',
        name_en: null,
        is_sellable: true,
        purchase_price: '0.5800',
        retail_price_100: '0.8120',
        variants: ['GV7003-09.99'],
      },
    ]);
    expect(await stock('09')).toEqual([
      { sku: 'GV5601-09.03', quantity: 4100, next_arrival_date: null },
      { sku: 'GV5601-09.13', quantity: 15200, next_arrival_date: '2026-12-15' },
      { sku: 'GV6120-09.05', quantity: 380, next_arrival_date: null },
      { sku: 'GV7003-09.99', quantity: 9800, next_arrival_date: null },
    ]);
    // The feed gives centimetres; positions are stored in millimetres.
    expect(await positions('09')).toEqual([
      { sku: 'GV5601-09', position_code: 'ACHTERZIJDE', print_area: '250x300', techniques: ['09-ZD'] },
      { sku: 'GV5601-09', position_code: 'VOORZIJDE', print_area: '250x300', techniques: ['09-ZD'] },
      { sku: 'GV6120-09', position_code: 'BAAN1', print_area: '250x175', techniques: ['09-ZD'] },
      { sku: 'GV7003-09', position_code: 'VOORZIJDE', print_area: '40x22', techniques: ['09-LG', '09-TD'] },
    ]);
    const keyring =
      await q(sql`SELECT pp.max_width_mm::text, pp.max_height_mm::text FROM aplt_print_positions pp
      JOIN aplt_products p ON p.id = pp.product_id WHERE p.sku = 'GV7003-09'`);
    expect(keyring[0]).toEqual({ max_width_mm: '40.00', max_height_mm: '22.00' });
    expect(feeds.requests).toEqual(expect.arrayContaining(kinds.map((k) => `/09/${k}.json`)));
  });

  it('refuses a print size unit it cannot convert instead of storing it as millimetres', () => {
    const position = (unit: string) => ({
      master_code: 'GV7003',
      printing_positions: [
        { position_id: 'A', print_size_unit: unit, max_print_size_width: '4', max_print_size_height: '2,2' },
      ],
    });
    expect(mapJsonPrint(position('CM'), '09')[0]).toMatchObject({ row: { widthMm: '40', heightMm: '22' } });
    expect(() => mapJsonPrint(position('inch'), '09')).toThrow(RowError);
    expect(() => mapJsonPrint(position('inch'), '09')).toThrow(/print_size_unit inch/);
  });
});
