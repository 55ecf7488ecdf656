import { type Kysely, sql } from 'kysely';

/**
 * The search refresh looks only at products whose indexed text changed (issue #17).
 *
 * Since migration 0510 a product was a candidate of aplt_refresh_product_search() whenever its
 * updated_at had moved. A price run moves the updated_at of every product it prices. So the next
 * products run had to fingerprint all 100,000 products and rewrite all 100,000 search rows, to
 * move their source_updated_at on. Those wide rows sit under two GIN indexes, and the refresh
 * took 5.5 s while it re-indexed nothing.
 *
 * aplt_products.search_source_at now records when the text the document is built from last
 * changed. A row trigger sets it, and only for an UPDATE that names one of those columns and
 * changes its value. The refresh compares it with aplt_product_search.source_updated_at, which
 * keeps its name and now holds the search_source_at it saw last. The trigger uses
 * clock_timestamp(), not the transaction's now(), because a writer may change the text again
 * after its own refresh in the same transaction, and that change must still be seen.
 * The md5 check stays: it catches text that changed and was changed back.
 */
const searchColumns = sql.raw(
  'sku, name_nl, name_en, name_de, brand, material, description_nl, description_en, description_de',
);
const row = (alias: 'OLD' | 'NEW') =>
  sql.raw(
    `(${[
      'sku',
      'name_nl',
      'name_en',
      'name_de',
      'brand',
      'material',
      'description_nl',
      'description_en',
      'description_de',
    ]
      .map((c) => `${alias}.${c}`)
      .join(', ')})`,
  );

/** The refresh of migration 0510, comparing `since` (a column of p) with source_updated_at. */
const refreshFunction = (since: 'search_source_at' | 'updated_at') => sql`
  CREATE OR REPLACE FUNCTION aplt_refresh_product_search() RETURNS integer
    LANGUAGE plpgsql AS $fn$
  DECLARE
    n integer;
  BEGIN
    PERFORM pg_advisory_xact_lock('aplt_product_search'::regclass::oid::bigint);
    DROP TABLE IF EXISTS aplt_product_search_refresh;
    CREATE TEMP TABLE aplt_product_search_refresh ON COMMIT DROP AS
      SELECT c.id, c.since, c.md5, c.old_md5 IS DISTINCT FROM c.md5 AS fresh,
        CASE WHEN c.old_md5 = c.md5 THEN c.old_text
          ELSE aplt_product_search_text(c.sku, c.name_nl, c.name_en, c.name_de) END AS search_text,
        CASE WHEN c.old_md5 = c.md5 THEN c.old_vector
          ELSE aplt_product_search_vector(c.sku, c.name_nl, c.name_en, c.name_de, c.brand, c.material,
            c.description_nl, c.description_en, c.description_de) END AS search_vector
      FROM (
        SELECT p.id, p.${sql.raw(since)} AS since, p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material,
          p.description_nl, p.description_en, p.description_de,
          aplt_product_search_source(p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material,
            p.description_nl, p.description_en, p.description_de) AS md5,
          x.source_md5 AS old_md5, x.search_text AS old_text, x.search_vector AS old_vector
        FROM aplt_products p LEFT JOIN aplt_product_search x ON x.product_id = p.id
        WHERE x.product_id IS NULL OR x.source_updated_at IS DISTINCT FROM p.${sql.raw(since)}
      ) c;
    INSERT INTO aplt_product_search AS s (product_id, source_updated_at, source_md5, search_text, search_vector)
    SELECT r.id, r.since, r.md5, r.search_text, r.search_vector
    FROM aplt_product_search_refresh r
    ORDER BY r.id
    ON CONFLICT (product_id) DO UPDATE SET source_updated_at = EXCLUDED.source_updated_at,
      source_md5 = EXCLUDED.source_md5, search_text = EXCLUDED.search_text,
      search_vector = EXCLUDED.search_vector,
      indexed_at = CASE WHEN s.source_md5 = EXCLUDED.source_md5 THEN s.indexed_at ELSE now() END;
    SELECT count(*) FILTER (WHERE fresh) INTO n FROM aplt_product_search_refresh;
    DROP TABLE aplt_product_search_refresh;
    RETURN n;
  END
  $fn$`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aplt_products ADD COLUMN search_source_at timestamptz NOT NULL DEFAULT now()`.execute(
    db,
  );
  await sql`COMMENT ON COLUMN aplt_products.search_source_at IS ${sql.lit(
    'When the text of the search document (sku, names, brand, material, descriptions) last changed; set by a trigger, compared by aplt_refresh_product_search().',
  )}`.execute(db);
  await sql`
    CREATE FUNCTION aplt_products_search_source_changed() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search_source_at := clock_timestamp();
      RETURN NEW;
    END $$`.execute(db);
  // UPDATE OF: a statement that sets none of these columns (a price run) does not fire it at all.
  await sql`
    CREATE TRIGGER aplt_products_search_source_trg
      BEFORE UPDATE OF ${searchColumns} ON aplt_products
      FOR EACH ROW WHEN (${row('OLD')} IS DISTINCT FROM ${row('NEW')})
      EXECUTE FUNCTION aplt_products_search_source_changed()`.execute(db);
  await refreshFunction('search_source_at').execute(db);
  // Documents that are current take the new column's value without being rebuilt.
  await sql`
    UPDATE aplt_product_search s SET source_updated_at = p.search_source_at
    FROM aplt_products p
    WHERE p.id = s.product_id AND s.source_md5 = aplt_product_search_source(p.sku, p.name_nl, p.name_en, p.name_de,
      p.brand, p.material, p.description_nl, p.description_en, p.description_de)`.execute(db);
  await sql`SELECT aplt_refresh_product_search()`.execute(db);
  await sql`COMMENT ON TABLE aplt_product_search IS ${sql.lit(
    'Search document per product (derived, never edited): filled by aplt_refresh_product_search() after product writes. source_updated_at is the aplt_products.search_source_at that was looked at last; source_md5 the fingerprint of the indexed text; indexed_at when the document was last computed.',
  )}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aplt_products_search_source_trg ON aplt_products`.execute(db);
  await sql`DROP FUNCTION aplt_products_search_source_changed()`.execute(db);
  await refreshFunction('updated_at').execute(db);
  await sql`ALTER TABLE aplt_products DROP COLUMN search_source_at`.execute(db);
  await sql`SELECT aplt_refresh_product_search()`.execute(db);
}
