import {
  type ApltDatabase,
  isUniqueViolation,
  type PgClient,
  type RawBuilder,
  sql,
  type Transaction,
} from '@aplt/db';
import { copyQueryInto } from './copy-writer';
import { withSavepoint } from './savepoint';
import type { Counts } from './import.repository';

type Trx = Transaction<ApltDatabase>;

/**
 * How a write statement adds rows that were not there when it began: by plain INSERT first (an
 * upsert costs half as much again per row, and only a row another transaction inserted since the
 * statement began can collide), or as an upsert when the plain INSERT collided.
 */
type NewRows = 'insert' | 'upsert';

/** `ON CONFLICT <conflict>` when the statement runs as an upsert. */
const onConflict = (mode: NewRows, conflict: RawBuilder<unknown>) =>
  mode === 'upsert' ? sql`ON CONFLICT ${conflict}` : sql``;

/** `first`, and when it is refused with a unique violation, `otherwise` (other errors pass on). */
const unlessUniqueViolation = <T>(
  trx: Trx,
  name: string,
  first: () => Promise<T>,
  otherwise: () => Promise<T>,
) =>
  withSavepoint(trx, name, first, (err) => {
    if (!isUniqueViolation(err)) throw err;
    return otherwise();
  });

/** Runs `write` with plain INSERTs and, refused with a unique violation, once more as an upsert. */
const insertElseUpsert = <T>(trx: Trx, write: (mode: NewRows) => Promise<T>): Promise<T> =>
  unlessUniqueViolation(
    trx,
    'insert_else_upsert',
    () => write('insert'),
    () => write('upsert'),
  );

/**
 * Writes a range by `insert` when none of its products (`products`: a query of their ids) has a
 * row in `table` yet: there is nothing to compare with (a supplier's first run, new products).
 * Otherwise by `compare`, which also serves as the upsert when the plain INSERTs collided.
 */
async function insertOrCompare(
  trx: Trx,
  table: 'aplt_product_prices' | 'aplt_print_positions',
  products: RawBuilder<unknown>,
  insert: () => Promise<Counts>,
  compare: (mode: NewRows) => Promise<Counts>,
): Promise<Counts> {
  return insertElseUpsert(trx, async (mode) => {
    if (mode === 'upsert') return compare(mode);
    const res = await sql<{ listed: boolean }>`
      SELECT EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.product_id IN (${products})) AS listed`.execute(
      trx,
    );
    return res.rows[0]?.listed ? compare(mode) : insert();
  });
}

/**
 * Staging tables of the COPY write path (products and stock feeds). They are TEMP tables dropped
 * at commit: session-private, never WAL-logged, gone with a failed run. `ord` is the position
 * among the staged rows (the feed order), `row_number` the feed record for the reject report.
 */
export const productStage = {
  table: 'aplt_stage_products',
  columns: [
    'ord',
    'row_number',
    'sku',
    'supplier_sku',
    'name_nl',
    'name_en',
    'name_de',
    'd_nl',
    'd_en',
    'd_de',
    'brand',
    'material',
    'dimensions',
    'country',
    'category',
    'printable',
    'positions',
    'image_url',
    'images',
    'variants',
    'fingerprint',
  ],
};

export const stockStage = {
  table: 'aplt_stage_stock',
  columns: ['ord', 'row_number', 'supplier_sku', 'qty', 'fad', 'faq', 'nad', 'naq'],
};

export const copyStatement = (stage: { table: string; columns: string[] }) =>
  `COPY ${stage.table} (${stage.columns.join(', ')}) FROM STDIN`;

export async function createProductStage(trx: Trx): Promise<void> {
  await sql`CREATE TEMP TABLE aplt_stage_products (ord int PRIMARY KEY, row_number int NOT NULL, sku text NOT NULL,
    supplier_sku text NOT NULL, name_nl text, name_en text, name_de text, d_nl text, d_en text, d_de text, brand text,
    material text, dimensions text, country char(2), category text, printable boolean, positions int, image_url text,
    images jsonb, variants json, fingerprint uuid NOT NULL) ON COMMIT DROP`.execute(trx);
}

export async function createStockStage(trx: Trx): Promise<void> {
  await sql`CREATE TEMP TABLE aplt_stage_stock (ord int PRIMARY KEY, row_number int NOT NULL, supplier_sku text NOT NULL,
    qty int NOT NULL, fad date, faq int, nad date, naq int) ON COMMIT DROP`.execute(trx);
}

const productCols = sql`name_nl, name_en, name_de, description_nl, description_en, description_de, brand, material,
  dimensions, country_of_origin, supplier_category_code, printable, number_of_print_positions, image_url, images`;

/**
 * The feed fingerprint of every product of `supplier` that has one (migration 0518): our SKU ->
 * the hash of the record that last wrote it. Marks the transaction as the products run, so that
 * the run's own variant writes keep the fingerprints it writes.
 */
export async function feedFingerprints(trx: Trx, supplier: string): Promise<Map<string, string>> {
  await sql`SELECT set_config('aplt.feed_fingerprints', 'writing', true)`.execute(trx);
  const res = await sql<{ sku: string; fp: string }>`
    SELECT sku, feed_fingerprint::text AS fp FROM aplt_products
    WHERE supplier_code = ${supplier} AND feed_fingerprint IS NOT NULL`.execute(trx);
  return new Map(res.rows.map((r) => [r.sku, r.fp]));
}

/**
 * Products with ord in [lo, hi) from the stage into aplt_products and their variants, set-based.
 * Unchanged products and variants are dropped by an anti-join before the INSERT, and the ON
 * CONFLICT guard repeats the comparison for a row that a concurrent writer made equal in the
 * meantime; neither is rewritten. A product row whose columns are equal but whose fingerprint is
 * not (its variants changed, or it had none) is written for the fingerprint.
 */
export async function applyStagedProducts(
  trx: Trx,
  supplier: string,
  lo: number,
  hi: number,
): Promise<Counts> {
  const res = await sql<{ inserted: number; updated: number }>`
    WITH changed AS (
      SELECT s.* FROM aplt_stage_products s LEFT JOIN aplt_products e ON e.sku = s.sku
      WHERE s.ord >= ${lo} AND s.ord < ${hi} AND (e.id IS NULL
        OR (e.name_nl, e.name_en, e.name_de, e.description_nl, e.description_en, e.description_de, e.brand, e.material,
            e.dimensions, e.country_of_origin, e.supplier_category_code, e.printable, e.number_of_print_positions,
            e.image_url, e.images, e.feed_fingerprint)
          IS DISTINCT FROM (s.name_nl, s.name_en, s.name_de, s.d_nl, s.d_en, s.d_de, s.brand, s.material, s.dimensions,
            s.country, s.category, s.printable, s.positions, s.image_url, s.images, s.fingerprint))
    ), written AS (
      INSERT INTO aplt_products AS p (sku, supplier_code, supplier_sku, ${productCols}, feed_fingerprint, last_imported_at)
      SELECT c.sku, ${supplier}, c.supplier_sku, c.name_nl, c.name_en, c.name_de, c.d_nl, c.d_en, c.d_de, c.brand,
        c.material, c.dimensions, c.country, c.category, c.printable, c.positions, c.image_url, c.images, c.fingerprint,
        now()
      -- No ORDER BY: sorting the wide rows spilled to disk; the stage is read in feed order anyway.
      FROM changed c
      ON CONFLICT (sku) DO UPDATE SET (${productCols}, feed_fingerprint, last_imported_at) = (EXCLUDED.name_nl,
        EXCLUDED.name_en, EXCLUDED.name_de, EXCLUDED.description_nl, EXCLUDED.description_en, EXCLUDED.description_de,
        EXCLUDED.brand, EXCLUDED.material, EXCLUDED.dimensions, EXCLUDED.country_of_origin,
        EXCLUDED.supplier_category_code, EXCLUDED.printable, EXCLUDED.number_of_print_positions, EXCLUDED.image_url,
        EXCLUDED.images, EXCLUDED.feed_fingerprint, EXCLUDED.last_imported_at)
      WHERE (p.name_nl, p.name_en, p.name_de, p.description_nl, p.description_en, p.description_de, p.brand, p.material,
          p.dimensions, p.country_of_origin, p.supplier_category_code, p.printable, p.number_of_print_positions,
          p.image_url, p.images, p.feed_fingerprint)
        IS DISTINCT FROM (EXCLUDED.name_nl, EXCLUDED.name_en, EXCLUDED.name_de, EXCLUDED.description_nl,
          EXCLUDED.description_en, EXCLUDED.description_de, EXCLUDED.brand, EXCLUDED.material, EXCLUDED.dimensions,
          EXCLUDED.country_of_origin, EXCLUDED.supplier_category_code, EXCLUDED.printable,
          EXCLUDED.number_of_print_positions, EXCLUDED.image_url, EXCLUDED.images, EXCLUDED.feed_fingerprint)
      RETURNING (xmax = 0) AS inserted
    )
    SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
    FROM written`.execute(trx);
  await sql`
    WITH feed AS (
      SELECT p.id AS product_id, v.* FROM aplt_stage_products s
      JOIN aplt_products p ON p.sku = s.sku
      CROSS JOIN LATERAL json_to_recordset(s.variants) AS v(sku text, supplier_sku text, supplier_variant_id text,
        color_code text, color_name text, color_group text, pms_color text, gtin text, plc_status text)
      WHERE s.ord >= ${lo} AND s.ord < ${hi}
    ), changed AS (
      SELECT f.* FROM feed f LEFT JOIN aplt_product_variants e ON e.sku = f.sku
      WHERE e.id IS NULL
        OR (e.supplier_sku, e.supplier_variant_id, e.color_name, e.color_group, e.pms_color, e.gtin, e.plc_status)
          IS DISTINCT FROM (f.supplier_sku, f.supplier_variant_id, f.color_name, f.color_group, f.pms_color, f.gtin,
            f.plc_status)
    )
    INSERT INTO aplt_product_variants AS v (product_id, sku, supplier_sku, supplier_variant_id, color_code, color_name,
      color_group, pms_color, gtin, plc_status)
    SELECT product_id, sku, supplier_sku, supplier_variant_id, color_code, color_name, color_group, pms_color, gtin,
      plc_status
    FROM changed
    ON CONFLICT (sku) DO UPDATE SET (supplier_sku, supplier_variant_id, color_name, color_group, pms_color, gtin,
      plc_status) = (EXCLUDED.supplier_sku, EXCLUDED.supplier_variant_id, EXCLUDED.color_name, EXCLUDED.color_group,
      EXCLUDED.pms_color, EXCLUDED.gtin, EXCLUDED.plc_status)
    WHERE (v.supplier_sku, v.supplier_variant_id, v.color_name, v.color_group, v.pms_color, v.gtin, v.plc_status)
      IS DISTINCT FROM (EXCLUDED.supplier_sku, EXCLUDED.supplier_variant_id, EXCLUDED.color_name,
        EXCLUDED.color_group, EXCLUDED.pms_color, EXCLUDED.gtin, EXCLUDED.plc_status)`.execute(trx);
  const r = res.rows[0] ?? { inserted: 0, updated: 0 };
  return { inserted: r.inserted, updated: r.updated, unchanged: hi - lo - r.inserted - r.updated };
}

/**
 * Supplier category codes that match one of our categories become connector mappings, for every
 * product of the feed (`skus`), unchanged ones included: a category created since the last run
 * gets its products then. Run once after the feed.
 */
export async function mapConnectorCategories(trx: Trx, skus: string[]): Promise<void> {
  await sql`
    INSERT INTO aplt_category_mappings (category_id, product_id, source)
    SELECT c.id, p.id, 'connector'
    FROM aplt_products p
    JOIN aplt_categories c ON c.code = p.supplier_category_code
    WHERE p.sku = ANY (${skus}::text[])
      AND NOT EXISTS (SELECT 1 FROM aplt_category_mappings m WHERE m.category_id = c.id AND m.product_id = p.id)
    ON CONFLICT (category_id, product_id) DO NOTHING`.execute(trx);
}

/**
 * Resolves every staged stock row to our SKU at once (the supplier's variant SKU first, then its
 * product code) and marks a row whose SKU is unknown; it goes to the reject report, not to
 * aplt_stock. (A repeated supplier SKU never reaches the stage: stock-import.ts.) The answers go
 * to a narrow table of their own: rewriting every staged row would cost more than the whole
 * resolution.
 */
export async function resolveStagedStock(trx: Trx, supplier: string): Promise<void> {
  await sql`
    CREATE TEMP TABLE aplt_stage_stock_resolved ON COMMIT DROP AS
    SELECT ord, sku,
      CASE WHEN sku IS NULL THEN 'unknown SKU: no product or variant of this supplier has it' END AS reject
    FROM (
      -- The product code is looked up only for a SKU no variant has (coalesce stops at a value).
      SELECT x.ord, coalesce(m.sku, (SELECT p.sku FROM aplt_products p
          WHERE p.supplier_code = ${supplier} AND p.supplier_sku = x.supplier_sku)) AS sku
      FROM aplt_stage_stock x
      LEFT JOIN (SELECT DISTINCT ON (v.supplier_sku) v.supplier_sku, v.sku
                 FROM aplt_product_variants v JOIN aplt_products pp ON pp.id = v.product_id
                 WHERE pp.supplier_code = ${supplier} AND v.supplier_sku IS NOT NULL
                 ORDER BY v.supplier_sku, v.id) m ON m.supplier_sku = x.supplier_sku
    ) r`.execute(trx);
  // The report pages through the rejects in feed order; usually there are few.
  await sql`CREATE INDEX ON aplt_stage_stock_resolved (ord) WHERE reject IS NOT NULL`.execute(trx);
  // Statistics of the columns the write joins and filters on: without them the planner takes the
  // stage for a few rows and looks every one up in aplt_stock by index.
  await sql`ANALYZE aplt_stage_stock (ord), aplt_stage_stock_resolved (ord, sku, reject)`.execute(trx);
}

/**
 * Stock rows with ord in [lo, hi) that resolved. First all of them by one plain INSERT: on a
 * supplier's first run no SKU has stock yet, and the comparison below would cost a third of the
 * write for nothing. When a SKU has stock already, that INSERT stops at it with a unique violation
 * (on a later run, at once) and is rolled back, and the rows are compared with what is there:
 * equal rows are not rewritten, new ones go in by INSERT (see NewRows), changed ones by UPDATE.
 */
export function applyStagedStock(trx: Trx, lo: number, hi: number): Promise<Counts> {
  return unlessUniqueViolation(
    trx,
    'stock_all_new',
    async () => {
      const res = await sql`
        INSERT INTO aplt_stock (sku, quantity, first_arrival_date, first_arrival_qty, next_arrival_date,
          next_arrival_qty, last_synced_at)
        SELECT r.sku, s.qty, s.fad, s.faq, s.nad, s.naq, now()
        FROM aplt_stage_stock s JOIN aplt_stage_stock_resolved r ON r.ord = s.ord
        WHERE s.ord >= ${lo} AND s.ord < ${hi} AND r.reject IS NULL`.execute(trx);
      return { inserted: Number(res.numAffectedRows ?? 0), updated: 0, unchanged: 0 };
    },
    () => compareStagedStock(trx, lo, hi),
  );
}

function compareStagedStock(trx: Trx, lo: number, hi: number): Promise<Counts> {
  return insertElseUpsert(trx, async (mode) => {
    const res = await sql<{ inserted: number; updated: number; unchanged: number }>`
      WITH src AS (
        SELECT s.*, r.sku, e.id AS existing,
          (e.quantity, e.first_arrival_date, e.first_arrival_qty, e.next_arrival_date, e.next_arrival_qty)
            IS NOT DISTINCT FROM (s.qty, s.fad, s.faq, s.nad, s.naq) AS same
        FROM aplt_stage_stock s JOIN aplt_stage_stock_resolved r ON r.ord = s.ord
        LEFT JOIN aplt_stock e ON e.sku = r.sku
        WHERE s.ord >= ${lo} AND s.ord < ${hi} AND r.reject IS NULL
      ), added AS (
        INSERT INTO aplt_stock AS t (sku, quantity, first_arrival_date, first_arrival_qty, next_arrival_date,
          next_arrival_qty, last_synced_at)
        SELECT sku, qty, fad, faq, nad, naq, now() FROM src WHERE existing IS NULL
        ${onConflict(
          mode,
          sql`(sku) DO UPDATE SET (quantity, first_arrival_date, first_arrival_qty, next_arrival_date,
          next_arrival_qty, last_synced_at) = (EXCLUDED.quantity, EXCLUDED.first_arrival_date,
          EXCLUDED.first_arrival_qty, EXCLUDED.next_arrival_date, EXCLUDED.next_arrival_qty, EXCLUDED.last_synced_at)`,
        )}
        RETURNING (xmax = 0) AS inserted
      ), rewritten AS (
        UPDATE aplt_stock t SET (quantity, first_arrival_date, first_arrival_qty, next_arrival_date, next_arrival_qty,
          last_synced_at) = (s.qty, s.fad, s.faq, s.nad, s.naq, now())
        FROM src s WHERE t.id = s.existing AND NOT s.same
        RETURNING false AS inserted
      ), written AS (
        SELECT inserted FROM added UNION ALL SELECT inserted FROM rewritten
      )
      SELECT (SELECT count(*) FILTER (WHERE inserted) FROM written)::int AS inserted,
        (SELECT count(*) FILTER (WHERE NOT inserted) FROM written)::int AS updated,
        (SELECT count(*) FROM src WHERE existing IS NOT NULL AND same)::int AS unchanged`.execute(trx);
    return res.rows[0] ?? { inserted: 0, updated: 0, unchanged: 0 };
  });
}

/** Rejects found by the set-based steps, in feed order, a page at a time (bounded memory). */
export async function stagedStockRejects(
  trx: Trx,
  afterOrd: number,
  limit: number,
): Promise<Array<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>> {
  const res = await sql<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>`
    SELECT r.ord, s.row_number, s.supplier_sku AS key, r.reject AS reason,
      json_build_object('supplierSku', s.supplier_sku, 'quantity', s.qty, 'firstArrivalDate', s.fad,
        'firstArrivalQty', s.faq, 'nextArrivalDate', s.nad, 'nextArrivalQty', s.naq) AS raw
    FROM aplt_stage_stock_resolved r JOIN aplt_stage_stock s ON s.ord = r.ord
    WHERE r.reject IS NOT NULL AND r.ord > ${afterOrd} ORDER BY r.ord LIMIT ${limit}`.execute(trx);
  return res.rows;
}

/** One staged row as it would appear in the reject report (when the database refuses that row alone). */
export async function stagedRow(
  trx: Trx,
  table: 'aplt_stage_products' | 'aplt_stage_stock',
  ord: number,
): Promise<{ row_number: number; key: string; raw: unknown } | undefined> {
  const res = await sql<{ row_number: number; key: string; raw: unknown }>`
    SELECT s.row_number, s.supplier_sku AS key, row_to_json(s) AS raw FROM ${sql.table(table)} s WHERE s.ord = ${ord}`.execute(
    trx,
  );
  return res.rows[0];
}

/**
 * Price feeds: one staged row per feed record (`ord` is its position among the staged records),
 * its scales as three arrays in the same order: minimum quantity, purchase and (marked up) retail
 * amount. Amounts are computed before staging so the rounding is the one the earlier batched path
 * used.
 */
export const priceStage = {
  table: 'aplt_stage_prices',
  columns: ['ord', 'row_number', 'supplier_sku', 'min_q', 'purchase', 'retail', 'currency', 'valid_until'],
};

export async function createPriceStage(trx: Trx): Promise<void> {
  await sql`CREATE TEMP TABLE aplt_stage_prices (ord int PRIMARY KEY, row_number int NOT NULL, supplier_sku text NOT NULL,
    min_q int[] NOT NULL, purchase numeric[] NOT NULL, retail numeric[] NOT NULL, currency text NOT NULL, valid_until date)
    ON COMMIT DROP`.execute(trx);
}

/**
 * Resolves every staged price record at once to its product and variant (the supplier's variant
 * SKU first, then its product code) and marks what cannot be written: an unknown SKU, a value the
 * price tables do not take (currency, negative price, minimum quantity, a scale listed twice), or
 * a second record for a product or variant already priced (the first one counts).
 */
export async function resolveStagedPrices(trx: Trx, supplier: string): Promise<void> {
  await sql`
    CREATE TEMP TABLE aplt_stage_prices_resolved ON COMMIT DROP AS
    WITH checked AS MATERIALIZED (
      -- Materialized: the planner would otherwise evaluate the checks twice per record.
      SELECT s.ord, s.row_number, s.supplier_sku,
        CASE WHEN s.currency !~ '^[A-Z]{3}$' THEN 'invalid currency: ' || s.currency
          WHEN 0 > ANY (s.purchase) THEN 'invalid price: below 0'
          WHEN 1 > ANY (s.min_q) THEN 'invalid minimum quantity: below 1'
          WHEN cardinality(s.min_q) <> (SELECT count(DISTINCT q) FROM unnest(s.min_q) q)
            THEN 'invalid scales: a minimum quantity is listed twice' END AS invalid
      FROM aplt_stage_prices s
    )
    SELECT ord, row_number, supplier_sku, product_id, variant_id,
      CASE WHEN product_id IS NULL THEN 'unknown product: no product or variant of this supplier has this SKU'
        WHEN invalid IS NOT NULL THEN invalid
        WHEN row_number() OVER (PARTITION BY product_id, coalesce(variant_id, 0), invalid IS NULL ORDER BY ord) > 1
          THEN 'duplicate: an earlier row of the feed prices ' || supplier_sku END AS reject
    FROM (
      -- The product code is looked up only for a SKU no variant has (coalesce stops at a value).
      SELECT x.*, coalesce(m.product_id, (SELECT p.id FROM aplt_products p
          WHERE p.supplier_code = ${supplier} AND p.supplier_sku = x.supplier_sku)) AS product_id, m.id AS variant_id
      FROM checked x
      LEFT JOIN (SELECT DISTINCT ON (v.supplier_sku) v.supplier_sku, v.id, v.product_id
                 FROM aplt_product_variants v JOIN aplt_products pp ON pp.id = v.product_id
                 WHERE pp.supplier_code = ${supplier} AND v.supplier_sku IS NOT NULL
                 ORDER BY v.supplier_sku, v.id) m ON m.supplier_sku = x.supplier_sku
    ) r`.execute(trx);
  await sql`CREATE INDEX ON aplt_stage_prices_resolved (ord)`.execute(trx);
  // Statistics of the columns the writes join and filter on (not of every staged value).
  await sql`ANALYZE aplt_stage_prices (ord), aplt_stage_prices_resolved (ord, product_id, variant_id, reject)`.execute(
    trx,
  );
}

const priceRecordRaw = sql`(SELECT json_build_object('supplierSku', r.supplier_sku, 'currency', s.currency,
  'validUntil', s.valid_until, 'scales', (SELECT json_agg(json_build_object('minQuantity', u.q, 'price', u.p) ORDER BY u.q)
  FROM unnest(s.min_q, s.purchase) AS u(q, p))) FROM aplt_stage_prices s WHERE s.ord = r.ord)`;

/** Rejects of the price resolution, in feed order, a page at a time. */
export async function stagedPriceRejects(
  trx: Trx,
  afterOrd: number,
  limit: number,
): Promise<Array<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>> {
  const res = await sql<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>`
    SELECT r.ord, r.row_number, r.supplier_sku AS key, r.reject AS reason, ${priceRecordRaw} AS raw
    FROM aplt_stage_prices_resolved r
    WHERE r.reject IS NOT NULL AND r.ord > ${afterOrd} ORDER BY r.ord LIMIT ${limit}`.execute(trx);
  return res.rows;
}

/** One staged price record as the reject report shows it (when the database refuses it alone). */
export async function stagedPriceRecord(
  trx: Trx,
  ord: number,
): Promise<{ row_number: number; key: string; raw: unknown } | undefined> {
  const res = await sql<{ row_number: number; key: string; raw: unknown }>`
    SELECT r.row_number, r.supplier_sku AS key, ${priceRecordRaw} AS raw
    FROM aplt_stage_prices_resolved r WHERE r.ord = ${ord}`.execute(trx);
  return res.rows[0];
}

/**
 * What a range of price records [lo, hi) prices, as CTEs both price writes start from:
 * - `keys`: the variants, and products priced as a whole (vkey 0), of the records that resolved;
 * - `touched`: products whose product-wide tiers are derived here (the range prices some of their
 *   variants);
 * - `feed`: one row per record and scale, purchase and retail side by side. A product priced as a
 *   whole that also has variants priced in the range gets the derived tiers instead, as it always has;
 * - `cheapest`: the derived product-wide scales, the cheapest variant per scale and price list,
 *   counting the variants the range leaves alone as they are (a list no variant has stays NULL).
 * The two price lists are spread into rows only when written (`tiersOf`): every step before that
 * handles half the rows.
 */
const rangePrices = (lo: number | RawBuilder<unknown>, hi: number | RawBuilder<unknown>) => sql`
    keys AS (
      SELECT ord, product_id, coalesce(variant_id, 0) AS vkey FROM aplt_stage_prices_resolved
      WHERE ord >= ${lo} AND ord < ${hi} AND reject IS NULL
    ), touched AS (
      SELECT DISTINCT product_id FROM keys WHERE vkey <> 0
    ), feed AS (
      SELECT k.ord, k.product_id, k.vkey, u.min_q, u.purchase, u.retail, s.currency, s.valid_until
      FROM keys k JOIN aplt_stage_prices s ON s.ord = k.ord
      CROSS JOIN LATERAL unnest(s.min_q, s.purchase, s.retail) AS u(min_q, purchase, retail)
      WHERE k.vkey <> 0 OR NOT EXISTS (SELECT 1 FROM touched t WHERE t.product_id = k.product_id)
    ), cheapest AS (
      SELECT product_id, 0::bigint AS vkey, min_q, min(purchase) AS purchase, min(retail) AS retail,
        min(currency) AS currency, NULL::date AS valid_until
      FROM (
        SELECT product_id, min_q, purchase, retail, currency FROM feed WHERE vkey <> 0
        UNION ALL
        SELECT e.product_id, e.min_quantity, CASE e.price_list WHEN 'purchase' THEN e.price END,
          CASE e.price_list WHEN 'retail' THEN e.price END, e.currency::text
        FROM aplt_product_prices e JOIN touched t ON t.product_id = e.product_id
        WHERE e.variant_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM keys k WHERE k.product_id = e.product_id AND k.vkey = e.variant_id)
      ) v
      -- In product order: written in key order, the tiers' unique index fills page by page.
      GROUP BY product_id, min_q ORDER BY product_id
    )`;

/** The rows of `feed` or `cheapest` as tiers, one per price list that has a price. */
const tiersOf = (cte: 'feed' | 'cheapest') =>
  sql`SELECT x.product_id, x.vkey, x.min_q, x.list, x.price, x.currency, x.valid_until
    FROM (SELECT c.*, l.list, CASE l.list WHEN 'purchase' THEN c.purchase ELSE c.retail END AS price
          FROM ${sql.table(cte)} c CROSS JOIN (VALUES ('purchase'), ('retail')) AS l(list)) x
    WHERE x.price IS NOT NULL`;

/**
 * What makes a product sellable: its product-wide retail tier that applies at 100 (and the
 * purchase one), which after the write are the derived ones or the feed's own. The tier with the
 * highest quantity up to 100 is the largest [quantity, price] pair (one aggregate, no sort).
 */
const sellable = sql`
    sellable AS (
      UPDATE aplt_products p SET retail_price_100 = a.retail, purchase_price = a.purchase
      FROM (
        SELECT k.product_id,
          (max(ARRAY[t.min_q, t.retail]) FILTER (WHERE t.min_q <= 100 AND t.retail IS NOT NULL))[2] AS retail,
          (max(ARRAY[t.min_q, t.purchase]) FILTER (WHERE t.min_q <= 100 AND t.purchase IS NOT NULL))[2] AS purchase
        FROM (SELECT DISTINCT product_id FROM keys) k
        LEFT JOIN (SELECT product_id, min_q, purchase, retail FROM cheapest
                   UNION ALL SELECT product_id, min_q, purchase, retail FROM feed WHERE vkey = 0) t
          ON t.product_id = k.product_id
        GROUP BY k.product_id
      ) a
      WHERE p.id = a.product_id AND (p.retail_price_100, p.purchase_price) IS DISTINCT FROM (a.retail, a.purchase)
    )`;

/**
 * Price records with ord in [lo, hi) that resolved: the tiers of each priced variant (or product
 * priced as a whole) become the feed's, the product-wide tiers of a product whose variants are
 * priced become the cheapest variant's per scale, and the products' retail_price_100 /
 * purchase_price follow. New tiers go in by plain INSERT (see NewRows).
 * - When none of the range's products has a tier yet (a supplier's first price run, new products),
 *   everything is new: the tiers are inserted without comparing.
 * - Otherwise one statement compares: what the target no longer has is deleted; tiers and products
 *   whose values are the same are not rewritten, so an unchanged feed writes nothing; changed ones
 *   are updated in place.
 */
export function applyStagedPrices(trx: Trx, client: PgClient, lo: number, hi: number): Promise<Counts> {
  return insertOrCompare(
    trx,
    'aplt_product_prices',
    sql`SELECT product_id FROM aplt_stage_prices_resolved WHERE ord >= ${lo} AND ord < ${hi} AND reject IS NULL`,
    () => insertStagedPrices(trx, client, lo, hi),
    (mode) => writeStagedPrices(trx, lo, hi, mode),
  );
}

const TIER_COLUMNS = 'product_id, variant_id, price_list, min_quantity, price, currency, valid_until';
const tierColumns = sql.raw(TIER_COLUMNS);

/**
 * The range's tiers when its products have none: every priced variant or product is inserted, by
 * COPY (copyQueryInto): the statement that reads them out also makes the products sellable.
 */
async function insertStagedPrices(trx: Trx, client: PgClient, lo: number, hi: number): Promise<Counts> {
  // COPY takes no parameters: the range goes in as literals (integers).
  const tiers = sql`
    WITH ${rangePrices(sql.lit(lo), sql.lit(hi))}, ${sellable}
    -- The feed's in feed order, which is key order when the feed lists a product's variants together.
    SELECT product_id, nullif(vkey, 0), list, min_q, price, currency, valid_until FROM (${tiersOf('feed')}) f
    UNION ALL
    SELECT product_id, NULL, list, min_q, price, currency, valid_until FROM (${tiersOf('cheapest')}) c`;
  const query = tiers.compile(trx);
  if (query.parameters.length > 0) throw new Error('a COPY query cannot take parameters');
  await copyQueryInto(client, query.sql, `aplt_product_prices (${TIER_COLUMNS})`);
  const res = await sql<{ inserted: number }>`
    SELECT count(*)::int AS inserted FROM aplt_stage_prices_resolved
    WHERE ord >= ${lo} AND ord < ${hi} AND reject IS NULL`.execute(trx);
  return { inserted: res.rows[0]?.inserted ?? 0, updated: 0, unchanged: 0 };
}

async function writeStagedPrices(trx: Trx, lo: number, hi: number, mode: NewRows): Promise<Counts> {
  const res = await sql<{ inserted: number; updated: number; unchanged: number }>`
    WITH ${rangePrices(lo, hi)},
    current AS (
      SELECT x.id, x.product_id, coalesce(x.variant_id, 0) AS vkey, x.min_quantity, x.price_list, x.price,
        x.currency::text AS currency, x.valid_until
      FROM aplt_product_prices x
      JOIN (SELECT product_id, vkey FROM keys UNION SELECT product_id, 0 FROM touched) k
        ON k.product_id = x.product_id AND k.vkey = coalesce(x.variant_id, 0)
    ), diff AS (
      -- A tier of the target that is new or different, or a current one the target no longer has.
      -- Products and variants the range does not price keep all of theirs.
      SELECT c.id AS existing, t.product_id IS NULL AS gone, coalesce(t.product_id, c.product_id) AS product_id,
        coalesce(t.vkey, c.vkey) AS vkey, t.min_q, t.list, t.price, t.currency, t.valid_until
      FROM current c FULL JOIN (${tiersOf('feed')} UNION ALL ${tiersOf('cheapest')}) t
        ON t.product_id = c.product_id AND t.vkey = c.vkey AND t.min_q = c.min_quantity AND t.list = c.price_list
      WHERE c.id IS NULL OR t.product_id IS NULL
        OR (c.price, c.currency, c.valid_until) IS DISTINCT FROM (t.price, t.currency, t.valid_until)
    ), dropped AS (
      DELETE FROM aplt_product_prices x USING diff d WHERE d.gone AND x.id = d.existing
    ), added AS (
      -- In key order: the tiers' unique index is then written page by page, not at random.
      INSERT INTO aplt_product_prices AS x (${tierColumns})
      SELECT product_id, nullif(vkey, 0), list, min_q, price, currency, valid_until FROM diff WHERE existing IS NULL
      ORDER BY product_id, vkey
      ${onConflict(mode, sql`ON CONSTRAINT aplt_product_prices_scale_key DO UPDATE SET price = EXCLUDED.price, currency = EXCLUDED.currency, valid_until = EXCLUDED.valid_until`)}
    ), rewritten AS (
      UPDATE aplt_product_prices x SET price = d.price, currency = d.currency, valid_until = d.valid_until
      FROM diff d WHERE NOT d.gone AND x.id = d.existing
    ), ${sellable},
    per_key AS (
      -- Counted from the plan, not from what the writes return: a tier the upsert found inserted by
      -- another transaction meanwhile counts as added.
      SELECT product_id, vkey, bool_and(existing IS NULL) AS all_new FROM diff GROUP BY product_id, vkey
    )
    SELECT count(*) FILTER (WHERE w.all_new)::int AS inserted,
      count(*) FILTER (WHERE NOT w.all_new)::int AS updated,
      count(*) FILTER (WHERE w.all_new IS NULL)::int AS unchanged
    FROM keys k LEFT JOIN per_key w ON w.product_id = k.product_id AND w.vkey = k.vkey`.execute(trx);
  return res.rows[0] ?? { inserted: 0, updated: 0, unchanged: 0 };
}

/**
 * Print-data feeds: one staged row per technique or position record (`kind` t or p). A position is
 * staged in typed columns, its techniques as parallel arrays (code, default, colours, size), so
 * neither side builds or parses JSON per record; the few technique records keep their normalised
 * row as JSON (`body`), scales and all.
 */
export const printStage = {
  table: 'aplt_stage_print',
  columns: [
    'ord',
    'row_number',
    'kind',
    'key',
    'code',
    'name',
    'w',
    'h',
    'rot',
    'points',
    't_codes',
    't_default',
    't_colours',
    't_w',
    't_h',
    'body',
  ],
};

export async function createPrintStage(trx: Trx): Promise<void> {
  await sql`CREATE TEMP TABLE aplt_stage_print (ord int PRIMARY KEY, row_number int NOT NULL, kind char(1) NOT NULL,
    key text, code text, name text, w numeric, h numeric, rot numeric, points jsonb, t_codes text[], t_default boolean[],
    t_colours int[], t_w numeric[], t_h numeric[], body jsonb) ON COMMIT DROP`.execute(trx);
}

/**
 * Techniques of the staged feed (the last record of a code counts), with their price scales and
 * setup cost, set-based: scales a technique no longer lists are deleted in the statement that
 * upserts its scales; equal rows are not rewritten.
 */
export async function applyStagedTechniques(trx: Trx, supplier: string): Promise<Counts> {
  await sql`
    CREATE TEMP TABLE aplt_stage_techniques ON COMMIT DROP AS
    SELECT DISTINCT ON (t.code) s.ord, t.* FROM aplt_stage_print s
    CROSS JOIN LATERAL jsonb_to_record(s.body) AS t(code text, name text, "pricingType" text, setup numeric,
      "setupRepeat" numeric, "smallOrderCharge" numeric, "maxColours" int, "fullColour" boolean, scales jsonb)
    WHERE s.kind = 't' ORDER BY t.code, s.ord DESC`.execute(trx);
  const res = await sql<{ inserted: number; updated: number; unchanged: number }>`
    WITH src AS (SELECT * FROM aplt_stage_techniques), written AS (
      INSERT INTO aplt_techniques AS x (code, supplier_code, supplier_technique_id, name_nl, name_en, name_de, pricing_type,
        max_colours, full_colour)
      SELECT code, ${supplier}, split_part(code, '-', 2), name, name, name, "pricingType", "maxColours", "fullColour" FROM src
      ON CONFLICT (code) DO UPDATE SET name_nl = EXCLUDED.name_nl, pricing_type = EXCLUDED.pricing_type,
        max_colours = EXCLUDED.max_colours, full_colour = EXCLUDED.full_colour
      WHERE (x.name_nl, x.pricing_type, x.max_colours, x.full_colour)
        IS DISTINCT FROM (EXCLUDED.name_nl, EXCLUDED.pricing_type, EXCLUDED.max_colours, EXCLUDED.full_colour)
      RETURNING (xmax = 0) AS inserted
    )
    SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated,
      ((SELECT count(*) FROM src) - count(*))::int AS unchanged FROM written`.execute(trx);
  await sql`
    WITH src AS (
      SELECT t.id AS technique_id, s.setup, s."setupRepeat" AS setup_repeat, s."smallOrderCharge" AS small_order, c.*
      FROM aplt_stage_techniques s JOIN aplt_techniques t ON t.code = s.code
      CROSS JOIN LATERAL jsonb_to_recordset(s.scales) AS c("minQuantity" int, price numeric, "nextColourPrice" numeric,
        "areaFrom" numeric, "areaTo" numeric, colours int)
    ), dropped AS (
      DELETE FROM aplt_technique_pricing x USING aplt_stage_techniques s JOIN aplt_techniques t ON t.code = s.code
      WHERE x.technique_id = t.id AND NOT EXISTS (SELECT 1 FROM src WHERE src.technique_id = x.technique_id
        AND (src."areaFrom", src."areaTo", src.colours, src."minQuantity")
          IS NOT DISTINCT FROM (x.area_from, x.area_to, x.colours, x.min_quantity))
    )
    INSERT INTO aplt_technique_pricing AS x (technique_id, area_from, area_to, colours, min_quantity, price_per_unit,
      next_colour_price, setup_cost, setup_repeat_cost, small_order_charge)
    SELECT technique_id, "areaFrom", "areaTo", colours, "minQuantity", price, "nextColourPrice", setup, setup_repeat,
      small_order FROM src
    ON CONFLICT ON CONSTRAINT aplt_technique_pricing_scale_key DO UPDATE SET price_per_unit = EXCLUDED.price_per_unit,
      next_colour_price = EXCLUDED.next_colour_price, setup_cost = EXCLUDED.setup_cost,
      setup_repeat_cost = EXCLUDED.setup_repeat_cost, small_order_charge = EXCLUDED.small_order_charge
    WHERE (x.price_per_unit, x.next_colour_price, x.setup_cost, x.setup_repeat_cost, x.small_order_charge)
      IS DISTINCT FROM (EXCLUDED.price_per_unit, EXCLUDED.next_colour_price, EXCLUDED.setup_cost,
        EXCLUDED.setup_repeat_cost, EXCLUDED.small_order_charge)`.execute(trx);
  await sql`
    INSERT INTO aplt_opstartkosten AS x (technique_id, setup_cost, repeat_setup_cost, description)
    SELECT t.id, s.setup, s."setupRepeat", s.name FROM aplt_stage_techniques s JOIN aplt_techniques t ON t.code = s.code
    ON CONFLICT ON CONSTRAINT aplt_opstartkosten_key DO UPDATE SET setup_cost = EXCLUDED.setup_cost,
      repeat_setup_cost = EXCLUDED.repeat_setup_cost
    WHERE (x.setup_cost, x.repeat_setup_cost) IS DISTINCT FROM (EXCLUDED.setup_cost, EXCLUDED.repeat_setup_cost)`.execute(
    trx,
  );
  return res.rows[0] ?? { inserted: 0, updated: 0, unchanged: 0 };
}

/** A staged position's techniques, one row each in feed order (`t.i`); `s` names the staged row. */
const stagedTechniques = sql`unnest(s.t_codes, s.t_default, s.t_colours, s.t_w, s.t_h) WITH ORDINALITY
  AS t(code, def, mc, w, h, i)`;

/**
 * A staged position record as the reject report shows it: the normalised row as the mapper gave it
 * (sizes as their decimal text, absent values left out).
 */
const stagedPositionRaw = sql`jsonb_strip_nulls(jsonb_build_object('masterCode', s.key, 'positionCode', s.code,
    'positionName', s.name, 'widthMm', s.w::text, 'heightMm', s.h::text, 'rotation', s.rot::text))
  || jsonb_build_object('techniques', coalesce((SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('code', t.code,
    'isDefault', t.def, 'maxColours', t.mc, 'widthMm', t.w::text, 'heightMm', t.h::text)) ORDER BY t.i)
    FROM ${stagedTechniques}), '[]'::jsonb))
  || CASE WHEN s.points IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('points', s.points) END`;

/**
 * Positions of the staged feed resolved at once: records of one product and position code are
 * merged (the first record's values, the techniques of all, the first mention of a technique
 * counts), numbered by `gid` in feed order. Records of unknown products, with an invalid print
 * size or naming unknown techniques are marked for the report (a position naming an unknown
 * technique is still written with the techniques that exist, as before).
 */
export async function resolveStagedPositions(trx: Trx, supplier: string): Promise<void> {
  await sql`
    CREATE TEMP TABLE aplt_stage_positions_rec ON COMMIT DROP AS
    WITH unknown AS (
      -- The feed's technique codes that no technique has, found once for the whole feed (usually
      -- none), so a record needs no lookup and sort of its own unless it names one of them.
      SELECT coalesce(array_agg(d.code), '{}') AS codes
      FROM (SELECT DISTINCT unnest(t_codes) AS code FROM aplt_stage_print WHERE kind = 'p') d
      WHERE NOT EXISTS (SELECT 1 FROM aplt_techniques x WHERE x.code = d.code)
    )
    SELECT s.ord, s.row_number, s.key, p.id AS product_id,
      CASE WHEN p.id IS NULL THEN 'unknown product: no product of this supplier has this master code'
        WHEN s.w <= 0 OR s.h <= 0 THEN 'invalid print size: width and height must be above 0'
        WHEN s.t_codes && u.codes THEN 'unknown technique '
          || (SELECT string_agg(DISTINCT t.code, ', ') FROM unnest(s.t_codes) AS t(code) WHERE t.code = ANY (u.codes))
        END AS reject,
      p.id IS NOT NULL AND NOT coalesce(s.w <= 0 OR s.h <= 0, false) AS writable
    FROM aplt_stage_print s CROSS JOIN unknown u
    LEFT JOIN aplt_products p ON p.supplier_code = ${supplier} AND p.supplier_sku = s.key
    WHERE s.kind = 'p'`.execute(trx);
  await sql`
    CREATE TEMP TABLE aplt_stage_positions ON COMMIT DROP AS
    SELECT row_number() OVER (ORDER BY ord)::int - 1 AS gid, * FROM (
      SELECT DISTINCT ON (r.product_id, s.code) s.ord, s.row_number, s.key, r.product_id, s.code, s.name, s.w, s.h,
        s.rot, s.points
      FROM aplt_stage_positions_rec r JOIN aplt_stage_print s ON s.ord = r.ord
      WHERE r.writable ORDER BY r.product_id, s.code, s.ord
    ) f`.execute(trx);
  await sql`
    CREATE TEMP TABLE aplt_stage_position_links ON COMMIT DROP AS
    SELECT DISTINCT ON (r.product_id, s.code, x.id) r.product_id, s.code, x.id AS technique_id, t.mc,
      coalesce(t.def, false) AS def, t.w, t.h
    FROM aplt_stage_positions_rec r JOIN aplt_stage_print s ON s.ord = r.ord
    CROSS JOIN LATERAL ${stagedTechniques}
    JOIN aplt_techniques x ON x.code = t.code
    WHERE r.writable ORDER BY r.product_id, s.code, x.id, s.ord, t.i`.execute(trx);
  await sql`CREATE INDEX ON aplt_stage_positions (gid)`.execute(trx);
  await sql`CREATE INDEX ON aplt_stage_position_links (product_id, code)`.execute(trx);
  // Statistics of the columns the writes join and filter on.
  await sql`ANALYZE aplt_stage_positions (gid, product_id, code), aplt_stage_position_links (product_id, code),
    aplt_stage_positions_rec (ord, reject)`.execute(trx);
}

export async function stagedPositionRejects(
  trx: Trx,
  afterOrd: number,
  limit: number,
): Promise<Array<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>> {
  const res = await sql<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>`
    SELECT r.ord, r.row_number, r.key, r.reject AS reason, ${stagedPositionRaw} AS raw
    FROM aplt_stage_positions_rec r JOIN aplt_stage_print s ON s.ord = r.ord
    WHERE r.reject IS NOT NULL AND r.ord > ${afterOrd} ORDER BY r.ord LIMIT ${limit}`.execute(trx);
  return res.rows;
}

/** The first staged record of merged position `gid`, as the reject report shows it. */
export async function stagedPosition(
  trx: Trx,
  gid: number,
): Promise<{ row_number: number; key: string; raw: unknown } | undefined> {
  const res = await sql<{ row_number: number; key: string; raw: unknown }>`
    SELECT p.row_number, p.key, ${stagedPositionRaw} AS raw
    FROM aplt_stage_positions p JOIN aplt_stage_print s ON s.ord = p.ord WHERE p.gid = ${gid}`.execute(trx);
  return res.rows[0];
}

/** A staged print size as `print_area` text (`40x8`), when both sides are given; `t` names the row. */
const printAreaOf = (t: 's' | 'l') =>
  sql.raw(`CASE WHEN ${t}.w IS NOT NULL AND ${t}.h IS NOT NULL THEN ${t}.w::text || 'x' || ${t}.h::text END`);

/**
 * Merged positions with gid in [lo, hi): positions written (sized by their techniques' largest)
 * with the technique links of each. New rows go in by plain INSERT (see NewRows).
 * - When none of the range's products has a position yet (a supplier's first print-data run, new
 *   products), positions and links are inserted by one statement without comparing.
 * - Otherwise the links a listed position no longer has are deleted in the same statement set,
 *   equal rows are not rewritten and changed ones are updated in place.
 */
export function applyStagedPositions(trx: Trx, lo: number, hi: number): Promise<Counts> {
  return insertOrCompare(
    trx,
    'aplt_print_positions',
    sql`SELECT product_id FROM aplt_stage_positions WHERE gid >= ${lo} AND gid < ${hi}`,
    () => insertStagedPositions(trx, lo, hi),
    (mode) => writeStagedPositions(trx, lo, hi, mode),
  );
}

/**
 * The merged positions [lo, hi) as written (CTE `positions`): a position allows the largest size of
 * its techniques (each keeps its own on the link), as the links have it (two decimals); a position
 * whose techniques give none keeps its own.
 */
const sizedPositions = (lo: number, hi: number) => sql`
    sized AS (
      SELECT s.*, t.w AS tw, t.h AS th,
        t.w IS NOT NULL AND (round(s.w, 2), round(s.h, 2)) IS DISTINCT FROM (t.w, t.h) AS by_technique
      FROM aplt_stage_positions s
      LEFT JOIN (
        SELECT product_id, code, round(max(w), 2) AS w, round(max(h), 2) AS h FROM aplt_stage_position_links
        WHERE w IS NOT NULL AND h IS NOT NULL GROUP BY product_id, code
      ) t ON t.product_id = s.product_id AND t.code = s.code
      WHERE s.gid >= ${lo} AND s.gid < ${hi}
    ), positions AS (
      SELECT s.product_id, s.code, s.name, s.rot, s.points,
        CASE WHEN s.by_technique THEN s.tw ELSE s.w END AS w, CASE WHEN s.by_technique THEN s.th ELSE s.h END AS h,
        CASE WHEN s.by_technique THEN trim_scale(s.tw) || 'x' || trim_scale(s.th)
          ELSE ${printAreaOf('s')} END AS area
      FROM sized s
    )`;

const positionColumns = sql`product_id, position_code, position_name, max_width_mm, max_height_mm, print_area,
  rotation, coordinates`;
const linkColumns = sql`product_id, technique_id, print_position_id, max_colours, is_default, max_width_mm,
  max_height_mm, print_area`;

/**
 * The range's positions when none of its products has any: positions and their technique links
 * are inserted by one statement, the links joined to the positions it returns.
 */
async function insertStagedPositions(trx: Trx, lo: number, hi: number): Promise<Counts> {
  const res = await sql<{ inserted: number }>`
    WITH ${sizedPositions(lo, hi)},
    added AS (
      INSERT INTO aplt_print_positions (${positionColumns})
      SELECT product_id, code, name, w, h, area, rot, points FROM positions
      RETURNING id, product_id, position_code
    ), linked AS (
      INSERT INTO aplt_product_techniques (${linkColumns})
      SELECT l.product_id, l.technique_id, a.id, l.mc, l.def, l.w, l.h, ${printAreaOf('l')}
      FROM added a JOIN aplt_stage_position_links l ON l.product_id = a.product_id AND l.code = a.position_code
    )
    SELECT count(*)::int AS inserted FROM added`.execute(trx);
  const inserted = res.rows[0]?.inserted ?? 0;
  await analyzePositionsAfter(trx, inserted);
  return { inserted, updated: 0, unchanged: 0 };
}

/**
 * Statistics of the positions after a statement added many: with statistics that last saw the
 * table empty the planner takes them for a few rows and nests whatever joins them under each (a
 * first import of 200,000 positions into tables analyzed while empty ran for minutes, and in 10 s
 * with this).
 */
async function analyzePositionsAfter(trx: Trx, inserted: number): Promise<void> {
  if (inserted > 1000) await sql`ANALYZE aplt_print_positions (product_id, position_code)`.execute(trx);
}

async function writeStagedPositions(trx: Trx, lo: number, hi: number, mode: NewRows): Promise<Counts> {
  const res = await sql<{ id: number; inserted: boolean }>`
    WITH ${sizedPositions(lo, hi)},
    src AS (
      SELECT s.*, x.id AS existing
      FROM positions s LEFT JOIN aplt_print_positions x ON x.product_id = s.product_id AND x.position_code = s.code
    ), added AS (
      INSERT INTO aplt_print_positions AS x (${positionColumns})
      SELECT product_id, code, name, w, h, area, rot, points FROM src WHERE existing IS NULL
      ${onConflict(
        mode,
        sql`(product_id, position_code) DO UPDATE SET position_name = EXCLUDED.position_name,
        max_width_mm = EXCLUDED.max_width_mm, max_height_mm = EXCLUDED.max_height_mm, print_area = EXCLUDED.print_area,
        rotation = EXCLUDED.rotation, coordinates = coalesce(EXCLUDED.coordinates, x.coordinates)`,
      )}
      RETURNING x.id, (xmax = 0) AS inserted
    ), rewritten AS (
      UPDATE aplt_print_positions x SET position_name = s.name, max_width_mm = s.w, max_height_mm = s.h,
        print_area = s.area, rotation = s.rot, coordinates = coalesce(s.points, x.coordinates)
      FROM src s
      WHERE x.id = s.existing AND (x.position_name, x.max_width_mm, x.max_height_mm, x.print_area, x.rotation, x.coordinates)
        IS DISTINCT FROM (s.name, s.w, s.h, s.area, s.rot, coalesce(s.points, x.coordinates))
      RETURNING x.id, false AS inserted
    )
    SELECT * FROM added UNION ALL SELECT * FROM rewritten`.execute(trx);
  // The links join the positions just written.
  const inserted = res.rows.filter((r) => r.inserted).length;
  await analyzePositionsAfter(trx, inserted);
  const links = await sql<{ pos: number }>`
    WITH pos AS (
      SELECT pp.id AS pos, pp.product_id, pp.position_code AS code FROM aplt_stage_positions s
      JOIN aplt_print_positions pp ON pp.product_id = s.product_id AND pp.position_code = s.code
      WHERE s.gid >= ${lo} AND s.gid < ${hi}
    ), src AS (
      SELECT pos.pos, l.product_id, l.technique_id, l.mc, l.def, l.w, l.h, l.area, x.id AS existing,
        (x.max_colours, x.is_default, x.max_width_mm, x.max_height_mm, x.print_area)
          IS DISTINCT FROM (l.mc, l.def, l.w, l.h, l.area) AS differs
      FROM pos
      JOIN (SELECT l.*, ${printAreaOf('l')} AS area FROM aplt_stage_position_links l) l
        ON l.product_id = pos.product_id AND l.code = pos.code
      LEFT JOIN aplt_product_techniques x ON x.product_id = l.product_id AND x.technique_id = l.technique_id
        AND x.print_position_id = pos.pos
    ), dropped AS (
      DELETE FROM aplt_product_techniques x USING pos
      WHERE x.print_position_id = pos.pos AND x.product_id = pos.product_id
        AND NOT EXISTS (SELECT 1 FROM src WHERE src.pos = x.print_position_id AND src.technique_id = x.technique_id)
      RETURNING x.print_position_id AS pos
    ), added AS (
      INSERT INTO aplt_product_techniques AS x (${linkColumns})
      SELECT product_id, technique_id, pos, mc, def, w, h, area FROM src WHERE existing IS NULL
      ${onConflict(
        mode,
        sql`(product_id, technique_id, print_position_id) DO UPDATE SET max_colours = EXCLUDED.max_colours,
        is_default = EXCLUDED.is_default, max_width_mm = EXCLUDED.max_width_mm, max_height_mm = EXCLUDED.max_height_mm,
        print_area = EXCLUDED.print_area`,
      )}
      RETURNING x.print_position_id AS pos
    ), rewritten AS (
      UPDATE aplt_product_techniques x SET max_colours = s.mc, is_default = s.def, max_width_mm = s.w,
        max_height_mm = s.h, print_area = s.area
      FROM src s WHERE x.id = s.existing AND s.differs
      RETURNING x.print_position_id AS pos
    )
    SELECT DISTINCT pos FROM (SELECT pos FROM dropped UNION ALL SELECT pos FROM added UNION ALL SELECT pos FROM rewritten) c`.execute(
    trx,
  );
  // A position whose own row stayed but whose techniques changed counts as updated.
  const written = new Set(res.rows.map((r) => Number(r.id)));
  const updated = res.rows.length - inserted + links.rows.filter((r) => !written.has(Number(r.pos))).length;
  return { inserted, updated, unchanged: hi - lo - inserted - updated };
}
