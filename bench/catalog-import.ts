// Connector import throughput: a generated 100,000-product Midocean-style JSON feed (about 230 MB,
// two variants each) and its stock feed, imported through the real connector code (streamed
// parse, COPY into a staging table, set-based upserts, one transaction per run), beside a raw
// server-side COPY of the same rows into scratch tables in the same database and run. The search
// refresh that a products run ends with is timed on its own; the products' fair floor includes
// the same search documents COPYed into a copy of their table. Then the commerce sync of the same
// catalog (made sellable) beside a raw COPY of the rows it writes, and a second sync with nothing
// changed. Then the price and print-data feeds of the same catalog (same COPY-staged path), each
// beside a same-run COPY of the rows it wrote into copies of its tables with the same indexes,
// checks, foreign keys and reference triggers (migrations 0515, 0516). Each kind's fair floor is
// timed right after its import (the machine's speed drifts over minutes; a floor taken minutes
// away moved the ratios by ten points and more). Also the peak memory of the
// import, and last the floor of any importer with our schema: the same rows, already parsed,
// INSERTed into the emptied real tables with their indexes, foreign keys and SKU registry. Then
// the four-feed cycle on emptied tables as the worker can run it, and the next cycle on that
// catalog: the stock feed moved, the other three unchanged.
//   npx tsx bench/catalog-import.ts            (BENCH_PRODUCTS=20000 for a quicker run)
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import {
  type ApltDatabase,
  type CommerceDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  migrateToLatest,
  sql,
} from '@aplt/db';
import {
  createRun,
  findConnector,
  getRun,
  parsersByFormat,
  runConnector,
} from '@aplt/service-catalog/connectors';
import { syncCommerceCatalog } from '@aplt/service-catalog/sync';

const N = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const server = {
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
  password: process.env.PG_PASS,
};
const words =
  'pen mok tas fles notitieboek sleutelhanger paraplu usb lanyard cap shirt handdoek bidon lamp'.split(' ');
const colours = [
  ['04', 'Blauw'],
  ['03', 'Zwart'],
  ['05', 'Rood'],
  ['06', 'Wit'],
] as const;
const filler = 'Duurzaam relatiegeschenk met ruimte voor uw logo, geleverd in een neutrale doos. '.repeat(6);

async function write(path: string, gen: () => Generator<string>) {
  const out = createWriteStream(path);
  for (const chunk of gen()) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

function product(i: number) {
  const code = `BM${String(i).padStart(6, '0')}`;
  const w = words[i % words.length];
  const vs = [colours[i % 4]!, colours[(i + 1) % 4]!];
  return {
    code,
    json: {
      master_code: code,
      master_id: String(40_000_000 + i),
      product_name: { nl: `${w} ${code}`, en: `${w} ${code} (en)`, de: `${w} ${code} (de)` },
      long_description: {
        nl: `${filler}${i}`,
        en: `Durable promotional gift ${i}. ${filler}`,
        de: `Werbegeschenk ${i}. ${filler}`,
      },
      brand: 'Bench',
      country_of_origin: 'CN',
      number_of_print_positions: '1',
      printable: 'yes',
      category_code: 'pens',
      dimensions: '1X14 CM',
      material: 'ABS',
      digital_assets: [{ url: `https://cdn.example.test/${code}.jpg`, type: 'image' }],
      variants: vs.map(([cc, name], k) => ({
        variant_id: String(i * 10 + k),
        sku: `${code}-${cc}`,
        color_code: cc,
        color_description: name,
        color_group: name.toLowerCase(),
        pms_color: '2728C',
        gtin: String(8_719_941_000_000 + i * 10 + k),
        plc_status: '16',
      })),
    },
  };
}

const tsv = (v: unknown) => (v === null || v === undefined ? '\\N' : String(v).replace(/[\t\n\\]/g, ' '));

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-bench-'));
  // The COPY baselines read and write files server-side: the Postgres server process must be able to.
  await chmod(dir, 0o777);
  const name = `bench_catalog_${process.pid}`;
  const commerceName = `bench_commerce_${process.pid}`;
  await ensurePgDatabase(server, name);
  const db = createPgDb<ApltDatabase>({ ...server, database: name }, { max: 8 });
  try {
    await migrateToLatest(db, 'aplt');
    const feeds = {
      products: join(dir, 'products.json'),
      stock: join(dir, 'stock.json'),
      prices: join(dir, 'prices.json'),
      printdata: join(dir, 'printdata.json'),
    };
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings) VALUES ('01', 'Bench', 'json', ${JSON.stringify({ feeds })}::jsonb)`.execute(
      db,
    );

    console.log(`generating ${N} products ...`);
    await write(feeds.products, function* () {
      yield '[';
      for (let i = 0; i < N; i++) yield (i ? ',\n' : '\n') + JSON.stringify(product(i).json);
      yield '\n]\n';
    });
    // `moved` gives every variant another quantity: the stock feed of a later cycle.
    const writeStock = (moved: number) =>
      write(feeds.stock, function* () {
        yield '{"modified_at":"2026-11-21T06:00:00Z","stock":[';
        for (let i = 0; i < N; i++)
          for (const [k, v] of product(i).json.variants.entries())
            yield `${i || k ? ',' : ''}\n{"sku":"${v.sku}","qty":${(i * 7 + moved) % 5000},"next_arrival_date":"2027-01-15","next_arrival_qty":500}`;
        yield '\n]}\n';
      });
    await writeStock(0);
    // Prices: three scales per variant. Print data: TECHNIQUES techniques with three scales each, and
    // per product two positions allowing two techniques each.
    await write(feeds.prices, function* () {
      yield '{"currency":"EUR","date":"2026-11-21","price":[';
      for (let i = 0; i < N; i++)
        for (const [k, v] of product(i).json.variants.entries()) {
          const base = 0.3 + (i % 50) / 100;
          const scale = [1, 100, 500].map(
            (q, j) =>
              `{"minimum_quantity":"${q}","price":"${(base - j * 0.04).toFixed(2).replace('.', ',')}"}`,
          );
          yield `${i || k ? ',' : ''}\n{"sku":"${v.sku}","valid_until":"2027-12-31","scale":[${scale.join(',')}]}`;
        }
      yield '\n]}\n';
    });
    const TECHNIQUES = 10;
    await write(feeds.printdata, function* () {
      yield '{"print_techniques":[';
      for (let t = 0; t < TECHNIQUES; t++)
        yield `${t ? ',' : ''}\n{"id":"T${t}","description":"Techniek ${t}","pricing_type":"NumberOfColours","setup":"35,00","setup_repeat":"17,50","var_costs":[{"area_from":"0","area_to":"20","scales":[{"minimum_quantity":"1","price":"0,25","next_price":"0,15"},{"minimum_quantity":"500","price":"0,18","next_price":"0,10"},{"minimum_quantity":"1000","price":"0,12","next_price":"0,08"}]}]}`;
      yield '],\n"products":[';
      for (let i = 0; i < N; i++) {
        const pos = ['FRONT', 'BACK'].map(
          (code, j) =>
            `{"position_id":"${code}","print_size_unit":"mm","max_print_size_width":"${40 + j * 10}","max_print_size_height":"8","rotation":"0","printing_techniques":[{"id":"T${(i + j) % TECHNIQUES}","default":true,"max_colours":"4"},{"id":"T${(i + j + 1) % TECHNIQUES}","default":false,"max_colours":"1"}],"points":[{"distance_from_left":"10","distance_from_top":"5","sequence_no":1}]}`,
        );
        yield `${i ? ',' : ''}\n{"master_code":"${product(i).code}","printing_positions":[${pos.join(',')}]}`;
      }
      yield '\n]}\n';
    });
    // The same rows as TSV for the COPY baseline (what the import writes: products, variants, stock).
    await write(join(dir, 'products.tsv'), function* () {
      for (let i = 0; i < N; i++) {
        const p = product(i).json;
        yield (
          [
            `${p.master_code}-01`,
            '01',
            p.master_code,
            p.product_name.nl,
            p.product_name.en,
            p.product_name.de,
            p.long_description.nl,
            p.long_description.en,
            p.long_description.de,
            p.brand,
            p.material,
            p.dimensions,
            p.country_of_origin,
            p.category_code,
            'true',
            '1',
            p.digital_assets[0]!.url,
            JSON.stringify([p.digital_assets[0]!.url]),
          ]
            .map(tsv)
            .join('\t') + '\n'
        );
      }
    });
    await write(join(dir, 'variants.tsv'), function* () {
      for (let i = 0; i < N; i++) {
        for (const v of product(i).json.variants)
          yield (
            [
              `${product(i).code}-01.${v.color_code}`,
              v.sku,
              v.variant_id,
              v.color_code,
              v.color_description,
              v.color_group,
              v.pms_color,
              v.gtin,
              v.plc_status,
            ]
              .map(tsv)
              .join('\t') + '\n'
          );
      }
    });
    await write(join(dir, 'stock.tsv'), function* () {
      for (let i = 0; i < N; i++)
        for (const v of product(i).json.variants)
          yield `${product(i).code}-01.${v.color_code}\t${(i * 7) % 5000}\t2027-01-15\t500\n`;
    });
    const feedMb = (await stat(feeds.products)).size / 1e6;
    console.log(
      `product feed ${feedMb.toFixed(0)} MB, stock feed ${((await stat(feeds.stock)).size / 1e6).toFixed(0)} MB`,
    );

    // Baseline: raw COPY of the same rows into scratch tables without indexes or constraints.
    await sql`CREATE TABLE scratch_products (sku text, supplier_code text, supplier_sku text, name_nl text, name_en text, name_de text,
      d_nl text, d_en text, d_de text, brand text, material text, dimensions text, country text, category text, printable boolean,
      positions int, image_url text, images jsonb)`.execute(db);
    await sql`CREATE TABLE scratch_variants (sku text, supplier_sku text, variant_id text, color_code text, color_name text,
      color_group text, pms text, gtin text, plc text)`.execute(db);
    await sql`CREATE TABLE scratch_stock (sku text, quantity int, next_arrival_date date, next_arrival_qty int)`.execute(
      db,
    );
    let t = performance.now();
    await sql`COPY scratch_products FROM ${sql.lit(join(dir, 'products.tsv'))}`.execute(db);
    await sql`COPY scratch_variants FROM ${sql.lit(join(dir, 'variants.tsv'))}`.execute(db);
    const copyProducts = (performance.now() - t) / 1000;
    // Second baseline: COPY of the same rows into scratch copies of the real tables with their
    // indexes and generated columns (what any writer of aplt_products pays), minus FKs/triggers.
    await sql`CREATE TABLE scratch_like_products (LIKE aplt_products INCLUDING ALL)`.execute(db);
    await sql`CREATE TABLE scratch_like_variants (LIKE aplt_product_variants INCLUDING ALL)`.execute(db);
    t = performance.now();
    await sql`COPY scratch_like_products (sku, supplier_code, supplier_sku, name_nl, name_en, name_de, description_nl, description_en,
      description_de, brand, material, dimensions, country_of_origin, supplier_category_code, printable, number_of_print_positions,
      image_url, images) FROM ${sql.lit(join(dir, 'products.tsv'))}`.execute(db);
    await sql`COPY scratch_like_variants (sku, supplier_sku, supplier_variant_id, color_code, color_name, color_group, pms_color, gtin, plc_status, product_id)
      FROM PROGRAM ${sql.lit(`awk '{print $0 "\t" NR}' ${join(dir, 'variants.tsv')}`)}`.execute(db);
    const copyLike = (performance.now() - t) / 1000;
    // Third baseline: the same, with the tables' foreign keys too (supplier; variant -> product),
    // still without the SKU registry's triggers.
    await sql`CREATE TABLE scratch_fk_products (LIKE aplt_products INCLUDING ALL)`.execute(db);
    await sql`ALTER TABLE scratch_fk_products ADD FOREIGN KEY (supplier_code) REFERENCES aplt_suppliers (code)`.execute(
      db,
    );
    await sql`CREATE TABLE scratch_fk_variants (LIKE aplt_product_variants INCLUDING ALL)`.execute(db);
    await sql`ALTER TABLE scratch_fk_variants ADD FOREIGN KEY (product_id) REFERENCES scratch_fk_products (id)`.execute(
      db,
    );
    // ... and the SKU registry: every product and variant SKU registered once per statement by
    // triggers on the copies, as migration 0510's triggers do on the real tables.
    await sql`CREATE TABLE scratch_fk_skus (LIKE aplt_skus INCLUDING ALL)`.execute(db);
    await sql`CREATE FUNCTION scratch_fk_register_products() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO scratch_fk_skus (sku, product_id) SELECT n.sku, n.id FROM new_rows n; RETURN NULL; END $$`.execute(
      db,
    );
    await sql`CREATE FUNCTION scratch_fk_register_variants() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO scratch_fk_skus (sku, product_id, variant_id) SELECT n.sku, n.product_id, n.id FROM new_rows n;
      RETURN NULL; END $$`.execute(db);
    await sql`CREATE TRIGGER scratch_fk_products_register AFTER INSERT ON scratch_fk_products REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION scratch_fk_register_products()`.execute(db);
    await sql`CREATE TRIGGER scratch_fk_variants_register AFTER INSERT ON scratch_fk_variants REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION scratch_fk_register_variants()`.execute(db);
    t = performance.now();
    await sql`COPY scratch_stock FROM ${sql.lit(join(dir, 'stock.tsv'))}`.execute(db);
    const copyStock = (performance.now() - t) / 1000;
    await sql`CREATE TABLE scratch_like_stock (LIKE aplt_stock INCLUDING ALL)`.execute(db);
    t = performance.now();
    await sql`COPY scratch_like_stock (sku, quantity, next_arrival_date, next_arrival_qty) FROM ${sql.lit(join(dir, 'stock.tsv'))}`.execute(
      db,
    );
    const copyLikeStock = (performance.now() - t) / 1000;

    let peakRss = 0;
    let peakHeap = 0;
    const baseRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const timed = async (connector: string) => {
      const run = await createRun(db, { connector });
      const start = performance.now();
      await runConnector(db, run.id, findConnector(connector)!, {
        batchSize: 1000,
        defaultMarginPercent: '40',
      });
      const seconds = (performance.now() - start) / 1000;
      const r = (await getRun(db, run.id))!;
      if (r.status !== 'succeeded') throw new Error(`${connector} ${r.status}: ${r.error}`);
      return { seconds, run: r };
    };
    // Parsing the feed alone, no database: a floor the import cannot go under.
    t = performance.now();
    let parsed = 0;
    for await (const p of parsersByFormat.json.products(createReadStream(feeds.products)))
      if ('row' in p) parsed++;
    const parseSeconds = (performance.now() - t) / 1000;
    if (parsed !== N) throw new Error(`parsed ${parsed} of ${N} products`);
    // What a run wrote, beside a same-run COPY of the same rows into copies of the same tables:
    // same columns, defaults, checks, unique indexes, foreign keys (to the real tables) and the
    // statement triggers that keep a table's references where it has them instead of keys.
    const copyInto = async (table: string, cols: string, fks: string[], keyTriggers: string[] = []) => {
      const file = join(dir, `${table}.copy`);
      await sql`COPY (SELECT ${sql.raw(cols)} FROM ${sql.table(table)}) TO ${sql.lit(file)}`.execute(db);
      const scratch = `scratch_like_${table}`;
      await sql`CREATE TABLE ${sql.table(scratch)} (LIKE ${sql.table(table)} INCLUDING ALL EXCLUDING IDENTITY)`.execute(
        db,
      );
      for (const fk of fks) await sql`ALTER TABLE ${sql.table(scratch)} ADD ${sql.raw(fk)}`.execute(db);
      for (const fn of keyTriggers)
        await sql`CREATE TRIGGER ${sql.raw(`${scratch}_${fn}`)} AFTER INSERT ON ${sql.table(scratch)}
          REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(fn)}()`.execute(db);
      await sql`CHECKPOINT`.execute(db);
      const start = performance.now();
      await sql`COPY ${sql.table(scratch)} (${sql.raw(cols)}) FROM ${sql.lit(file)}`.execute(db);
      const seconds = (performance.now() - start) / 1000;
      const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(scratch)}`.execute(db);
      return { seconds, rows: n.rows[0]!.n };
    };
    // Each run, then right after it its floor: the machine's speed drifts over minutes, and a floor
    // taken next to its import compares like with like.
    const imp = await timed('01_products');
    await sql`CHECKPOINT`.execute(db);
    t = performance.now();
    await sql`COPY scratch_fk_products (sku, supplier_code, supplier_sku, name_nl, name_en, name_de, description_nl, description_en,
      description_de, brand, material, dimensions, country_of_origin, supplier_category_code, printable, number_of_print_positions,
      image_url, images) FROM ${sql.lit(join(dir, 'products.tsv'))}`.execute(db);
    await sql`COPY scratch_fk_variants (sku, supplier_sku, supplier_variant_id, color_code, color_name, color_group, pms_color, gtin, plc_status, product_id)
      FROM PROGRAM ${sql.lit(`awk '{print $0 "\t" int((NR + 1) / 2)}' ${join(dir, 'variants.tsv')}`)}`.execute(
      db,
    );
    const copyFk = (performance.now() - t) / 1000;
    // The run also writes a search document per product: the same documents COPYed into a copy of
    // aplt_product_search (its GIN indexes and key) complete the products' floor.
    const searchCopy = await copyInto(
      'aplt_product_search',
      'product_id, source_updated_at, source_md5, search_text, search_vector, indexed_at',
      ['FOREIGN KEY (product_id) REFERENCES aplt_products (id)'],
    );
    const stock = await timed('01_stock');
    // The same with aplt_stock's foreign key to the SKU registry (filled by the products run now).
    await sql`CREATE TABLE scratch_fk_stock (LIKE aplt_stock INCLUDING ALL)`.execute(db);
    await sql`ALTER TABLE scratch_fk_stock ADD FOREIGN KEY (sku) REFERENCES aplt_skus (sku)`.execute(db);
    await sql`CHECKPOINT`.execute(db);
    t = performance.now();
    await sql`COPY scratch_fk_stock (sku, quantity, next_arrival_date, next_arrival_qty) FROM ${sql.lit(join(dir, 'stock.tsv'))}`.execute(
      db,
    );
    const copyFkStock = (performance.now() - t) / 1000;
    const prices = await timed('01_prices');
    const priceCopy = await copyInto(
      'aplt_product_prices',
      'id, product_id, variant_id, price_list, min_quantity, price, currency, valid_until',
      [],
      ['aplt_product_prices_check_new_keys'],
    );
    const print = await timed('01_printdata');
    const techCopy = await copyInto(
      'aplt_techniques',
      'id, code, supplier_code, supplier_technique_id, name_nl, name_en, name_de, pricing_type, max_colours, full_colour',
      ['FOREIGN KEY (supplier_code) REFERENCES aplt_suppliers (code)'],
    );
    const tpCopy = await copyInto(
      'aplt_technique_pricing',
      'id, technique_id, area_from, area_to, colours, min_quantity, price_per_unit, next_colour_price, setup_cost, setup_repeat_cost, small_order_charge',
      ['FOREIGN KEY (technique_id) REFERENCES aplt_techniques (id)'],
    );
    const posCopy = await copyInto(
      'aplt_print_positions',
      'id, product_id, position_code, position_name, max_width_mm, max_height_mm, print_area, rotation, coordinates',
      ['FOREIGN KEY (product_id) REFERENCES aplt_products (id)'],
    );
    const linkCopy = await copyInto(
      'aplt_product_techniques',
      'id, product_id, technique_id, print_position_id, max_colours, is_default, max_width_mm, max_height_mm, print_area',
      [],
      ['aplt_product_techniques_check_new_keys'],
    );
    clearInterval(sampler);

    const rows = N * 3; // products + variants written
    const stockRows = N * 2;
    const fmt = (n: number) => Math.round(n).toLocaleString('en');
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
    const meta = imp.run.metadata as { write_ms: number; search_refresh_ms: number; search_indexed: number };
    const writeSeconds = meta.write_ms / 1000;
    const refresh = meta.search_refresh_ms / 1000;
    console.log('');
    console.log(
      `products feed: ${fmt(N)} products (${fmt(rows)} rows: products + variants), ${feedMb.toFixed(0)} MB`,
    );
    console.log(
      `  import (stream + parse + COPY to staging + set-based upsert): ${writeSeconds.toFixed(1)} s = ${fmt(rows / writeSeconds)} rows/s (${(feedMb / writeSeconds).toFixed(1)} MB/s)`,
    );
    console.log(
      `  raw COPY baseline (same run)      : ${copyProducts.toFixed(1)} s = ${fmt(rows / copyProducts)} rows/s`,
    );
    console.log(`  import / COPY                     : ${pct(copyProducts, writeSeconds)}`);
    console.log(
      `  parsing the feed alone (no database): ${parseSeconds.toFixed(1)} s = ${pct(parseSeconds, copyProducts)} of the raw COPY's time`,
    );
    console.log(
      `  search documents (the run's one refresh after the feed; not inside the import time above): ${refresh.toFixed(1)} s for ${fmt(meta.search_indexed)} documents; import with them: ${(writeSeconds + refresh).toFixed(1)} s`,
    );
    console.log(
      `  whole run (import + ANALYZE + bookkeeping): ${imp.seconds.toFixed(1)} s = ${fmt(rows / imp.seconds)} rows/s; / COPY: ${pct(copyProducts, imp.seconds)}`,
    );
    console.log(
      `  COPY into copies of the real tables (indexes, no FKs/triggers): ${copyLike.toFixed(1)} s = ${fmt(rows / copyLike)} rows/s; import / that: ${pct(copyLike, writeSeconds)}`,
    );
    console.log(
      `  COPY into copies with the same indexes, foreign keys and SKU registry triggers: ${copyFk.toFixed(1)} s = ${fmt(rows / copyFk)} rows/s; import / that: ${pct(copyFk, writeSeconds)}`,
    );
    const productsFloor = copyFk + searchCopy.seconds;
    console.log(
      `  + the ${fmt(searchCopy.rows)} search documents COPYed into a copy of aplt_product_search (GIN indexes, key): ${searchCopy.seconds.toFixed(1)} s; together ${productsFloor.toFixed(1)} s; import with its documents / that: ${pct(productsFloor, writeSeconds + refresh)}`,
    );
    const re = await timed('01_products');
    console.log(
      `  re-import of the unchanged feed: ${re.seconds.toFixed(1)} s = ${fmt(rows / re.seconds)} rows/s (${re.run.rows_inserted} inserted, ${re.run.rows_updated} updated, ${String(re.run.metadata.unchanged)} unchanged, ${String(re.run.metadata.search_indexed)} re-indexed)`,
    );
    const stockWrite = (stock.run.metadata as { write_ms: number }).write_ms / 1000;
    console.log(`stock feed: ${fmt(stockRows)} rows`);
    console.log(
      `  import (stream + COPY to staging + set-based resolve and upsert): ${stockWrite.toFixed(2)} s = ${fmt(stockRows / stockWrite)} rows/s; whole run ${stock.seconds.toFixed(2)} s`,
    );
    console.log(
      `  raw COPY baseline (same run)      : ${copyStock.toFixed(2)} s = ${fmt(stockRows / copyStock)} rows/s`,
    );
    console.log(
      `  import / COPY                     : ${pct(copyStock, stockWrite)} (whole run: ${pct(copyStock, stock.seconds)})`,
    );
    console.log(
      `  COPY into a copy of aplt_stock (unique index on sku): ${copyLikeStock.toFixed(2)} s = ${fmt(stockRows / copyLikeStock)} rows/s; import / that: ${pct(copyLikeStock, stockWrite)}`,
    );
    console.log(
      `  COPY into a copy of aplt_stock with its foreign key to the SKU registry: ${copyFkStock.toFixed(2)} s = ${fmt(stockRows / copyFkStock)} rows/s; import / that: ${pct(copyFkStock, stockWrite)}`,
    );
    const writeOf = (r: typeof prices) => (r.run.metadata as { write_ms: number }).write_ms / 1000;
    const priceWrite = writeOf(prices);
    console.log(
      `prices feed: ${fmt(N * 2)} records (3 scales each) -> ${fmt(priceCopy.rows)} rows of aplt_product_prices (variant and product-wide tiers, purchase and retail)`,
    );
    console.log(
      `  import (stream + parse + COPY to staging + set-based resolve and upsert): ${priceWrite.toFixed(2)} s = ${fmt(priceCopy.rows / priceWrite)} rows/s; whole run ${prices.seconds.toFixed(2)} s`,
    );
    console.log(
      `  COPY of the same rows into a copy of aplt_product_prices (indexes, checks, key triggers): ${priceCopy.seconds.toFixed(2)} s = ${fmt(priceCopy.rows / priceCopy.seconds)} rows/s`,
    );
    console.log(
      `  import / COPY                     : ${pct(priceCopy.seconds, priceWrite)} (whole run: ${pct(priceCopy.seconds, prices.seconds)})`,
    );
    const printRows = techCopy.rows + tpCopy.rows + posCopy.rows + linkCopy.rows;
    const printCopySeconds = techCopy.seconds + tpCopy.seconds + posCopy.seconds + linkCopy.seconds;
    const printWrite = writeOf(print);
    console.log(
      `print data feed: ${fmt(N)} products -> ${fmt(printRows)} rows (${fmt(techCopy.rows)} techniques, ${fmt(tpCopy.rows)} technique scales, ${fmt(posCopy.rows)} positions, ${fmt(linkCopy.rows)} position techniques)`,
    );
    console.log(
      `  import: ${printWrite.toFixed(2)} s = ${fmt(printRows / printWrite)} rows/s; whole run ${print.seconds.toFixed(2)} s`,
    );
    console.log(
      `  COPY of the same rows into copies of the four tables (indexes, checks, FKs and key triggers): ${printCopySeconds.toFixed(2)} s = ${fmt(printRows / printCopySeconds)} rows/s`,
    );
    console.log(
      `  import / COPY                     : ${pct(printCopySeconds, printWrite)} (whole run: ${pct(printCopySeconds, print.seconds)})`,
    );
    const rePrices = await timed('01_prices');
    const rePrint = await timed('01_printdata');
    console.log(
      `  re-import of the unchanged feeds: prices ${rePrices.seconds.toFixed(2)} s (${rePrices.run.rows_inserted} inserted, ${rePrices.run.rows_updated} updated, ${String(rePrices.run.metadata.unchanged)} unchanged); print data ${rePrint.seconds.toFixed(2)} s (${rePrint.run.rows_inserted} inserted, ${rePrint.run.rows_updated} updated, ${String(rePrint.run.metadata.unchanged)} unchanged)`,
    );
    console.log(
      `four-feed cycle (whole runs: products + stock + prices + print data): ${(imp.seconds + stock.seconds + prices.seconds + print.seconds).toFixed(1)} s`,
    );
    console.log(
      `peak memory during the imports: rss ${(peakRss / 1e6).toFixed(0)} MB (process at start ${(baseRss / 1e6).toFixed(0)} MB), heap ${(peakHeap / 1e6).toFixed(0)} MB`,
    );

    // Commerce sync of the same catalog, made sellable by the price feed above.
    await sql`VACUUM ANALYZE aplt_products, aplt_product_prices`.execute(db);
    await ensurePgDatabase(server, commerceName);
    const commerce = createPgDb<CommerceDatabase>({ ...server, database: commerceName }, { max: 2 });
    try {
      await migrateToLatest(commerce, 'commerce');
      t = performance.now();
      const synced = await syncCommerceCatalog(db, commerce);
      const syncSeconds = (performance.now() - t) / 1000;
      const syncRows = synced.products + synced.variants + synced.prices;
      // Baseline: the rows the sync wrote, dumped and COPYed into bare scratch tables of the commerce DB.
      for (const table of ['product', 'product_variant', 'price'])
        await sql`COPY ${sql.table(table)} TO ${sql.lit(join(dir, `commerce-${table}.tsv`))}`.execute(
          commerce,
        );
      t = performance.now();
      for (const table of ['product', 'product_variant', 'price']) {
        await sql`CREATE TABLE ${sql.table(`scratch_${table}`)} (LIKE ${sql.table(table)})`.execute(commerce);
        await sql`COPY ${sql.table(`scratch_${table}`)} FROM ${sql.lit(join(dir, `commerce-${table}.tsv`))}`.execute(
          commerce,
        );
      }
      const copyCommerce = (performance.now() - t) / 1000;
      t = performance.now();
      await syncCommerceCatalog(db, commerce);
      const resync = (performance.now() - t) / 1000;
      console.log(
        `commerce sync: ${fmt(synced.products)} products, ${fmt(synced.variants)} variants, ${fmt(synced.prices)} prices (${fmt(syncRows)} rows)`,
      );
      console.log(
        `  first sync                        : ${syncSeconds.toFixed(1)} s = ${fmt(syncRows / syncSeconds)} rows/s`,
      );
      console.log(
        `  raw COPY baseline (same run)      : ${copyCommerce.toFixed(1)} s = ${fmt(syncRows / copyCommerce)} rows/s`,
      );
      console.log(`  sync / COPY                       : ${pct(copyCommerce, syncSeconds)}`);
      console.log(`  second sync (nothing changed)     : ${resync.toFixed(1)} s`);
    } finally {
      await commerce.destroy();
      await dropPgDatabase(server, commerceName);
    }

    // The floor any importer of these rows pays with our schema: the same rows, already parsed,
    // INSERTed from the scratch tables into the emptied real tables with every index, foreign key
    // and trigger (no feed parsing, no staging, no change detection, no reject report).
    await sql`DROP TABLE scratch_like_aplt_product_prices, scratch_like_aplt_product_techniques, scratch_like_aplt_print_positions,
      scratch_like_aplt_technique_pricing, scratch_like_aplt_techniques`.execute(db);
    await sql`TRUNCATE aplt_products, aplt_product_variants, aplt_skus, aplt_stock, aplt_product_search CASCADE`.execute(
      db,
    );
    await sql`CHECKPOINT`.execute(db);
    t = performance.now();
    await sql`INSERT INTO aplt_products (sku, supplier_code, supplier_sku, name_nl, name_en, name_de, description_nl,
      description_en, description_de, brand, material, dimensions, country_of_origin, supplier_category_code, printable,
      number_of_print_positions, image_url, images)
      SELECT sku, supplier_code, supplier_sku, name_nl, name_en, name_de, d_nl, d_en, d_de, brand, material, dimensions,
        country, category, printable, positions, image_url, images FROM scratch_products`.execute(db);
    await sql`INSERT INTO aplt_product_variants (product_id, sku, supplier_sku, supplier_variant_id, color_code, color_name,
      color_group, pms_color, gtin, plc_status)
      SELECT p.id, v.sku, v.supplier_sku, v.variant_id, v.color_code, v.color_name, v.color_group, v.pms, v.gtin, v.plc
      FROM scratch_variants v JOIN aplt_products p ON p.sku = split_part(v.sku, '.', 1)`.execute(db);
    const floorProducts = (performance.now() - t) / 1000;
    t = performance.now();
    await sql`INSERT INTO aplt_stock (sku, quantity, next_arrival_date, next_arrival_qty) SELECT * FROM scratch_stock`.execute(
      db,
    );
    const floorStock = (performance.now() - t) / 1000;
    console.log(
      'floor: the same rows already parsed, INSERTed into the real tables (indexes, foreign keys, SKU registry)',
    );
    console.log(
      `  products + variants: ${floorProducts.toFixed(1)} s = ${fmt(rows / floorProducts)} rows/s = ${pct(copyProducts, floorProducts)} of COPY; import / floor: ${pct(floorProducts, writeSeconds)}`,
    );
    console.log(
      `  stock              : ${floorStock.toFixed(2)} s = ${fmt(stockRows / floorStock)} rows/s = ${pct(copyStock, floorStock)} of COPY; import / floor: ${pct(floorStock, stockWrite)}`,
    );

    // The cycle as the connector worker can run it (concurrency 4): products first, then stock,
    // prices and print data at once, each in its own transaction, on emptied catalog tables.
    await sql`TRUNCATE aplt_products, aplt_product_variants, aplt_skus, aplt_stock, aplt_product_search, aplt_techniques
      CASCADE`.execute(db);
    await sql`CHECKPOINT`.execute(db);
    t = performance.now();
    const again = await timed('01_products');
    const rest = await Promise.all(['01_stock', '01_prices', '01_printdata'].map((c) => timed(c)));
    const concurrentCycle = (performance.now() - t) / 1000;
    console.log(
      `four-feed cycle, stock + prices + print data at once after products (as the worker's concurrency 4 allows): ${concurrentCycle.toFixed(1)} s (products ${again.seconds.toFixed(1)} s, then ${rest.map((r) => r.seconds.toFixed(1)).join(' / ')} s)`,
    );

    // The next cycle on that catalog, as a connector's schedule runs it: the stock feed has moved
    // (every quantity changed), products, prices and print data come again unchanged.
    await writeStock(13);
    t = performance.now();
    const next = await timed('01_products');
    const nextRest = await Promise.all(['01_stock', '01_prices', '01_printdata'].map((c) => timed(c)));
    const nextCycle = (performance.now() - t) / 1000;
    const changed = nextRest.map((r) => r.run.rows_inserted + r.run.rows_updated);
    console.log(
      `the next cycle on that catalog (stock moved, the other feeds unchanged), the same way: ${nextCycle.toFixed(1)} s (products ${next.seconds.toFixed(1)} s, then ${nextRest.map((r) => r.seconds.toFixed(1)).join(' / ')} s; rows written: products ${next.run.rows_inserted + next.run.rows_updated}, stock ${changed[0]}, prices ${changed[1]}, print data ${changed[2]})`,
    );
  } finally {
    await db.destroy();
    await dropPgDatabase(server, name);
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
