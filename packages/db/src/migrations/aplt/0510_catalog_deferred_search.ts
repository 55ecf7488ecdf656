import { type Kysely, sql } from 'kysely';

/**
 * Takes search indexing out of the write path of aplt_products (issue #7).
 *
 * The generated search_text / search_vector columns (unaccent + to_tsvector over three names and
 * three long descriptions) and their two GIN indexes were paid by every write of a product row,
 * and dominated the cost of a connector import (about 18x slower than a COPY of the same rows).
 * The search document now lives in aplt_product_search, one row per product, filled in bulk by
 * aplt_refresh_product_search(): a set-based statement that writers run after their batch (the
 * connector inside its run transaction, the tenant update, seeds). It re-indexes only products
 * whose row changed since they were indexed (updated_at), and of those recomputes the document
 * only where its source text changed (an md5 of the source), so a price run costs no re-indexing.
 *
 * Also in the write path of every product and variant: the SKU registry triggers fired once per
 * row, and each registered SKU was checked and key-share-locked against its product and variant
 * by the registry's own foreign keys. Inserts and deletes are now registered once per statement
 * (transition tables), which every writer (COPY, INSERT ... SELECT, single rows) gets unchanged. Indexes that no query
 * needs in their full form are trimmed: the supplier_code index is the leading column of the
 * (supplier_code, supplier_sku) key, nothing reads base_sku through an index (the product_id
 * index answers "the variants of a product"), and the indexes behind mostly-NULL foreign keys
 * only need their non-NULL rows (they serve ON DELETE SET NULL lookups by value).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- One definition of the search document. The md5 is what the refresh compares.
    CREATE FUNCTION aplt_product_search_source(sku text, name_nl text, name_en text, name_de text, brand text,
        material text, description_nl text, description_en text, description_de text) RETURNS uuid
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT md5(coalesce(sku, '') || chr(31) || coalesce(name_nl, '') || chr(31) || coalesce(name_en, '')
        || chr(31) || coalesce(name_de, '') || chr(31) || coalesce(brand, '') || chr(31) || coalesce(material, '')
        || chr(31) || coalesce(description_nl, '') || chr(31) || coalesce(description_en, '') || chr(31)
        || coalesce(description_de, ''))::uuid $$;
    CREATE FUNCTION aplt_product_search_text(sku text, name_nl text, name_en text, name_de text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT lower(aplt_f_unaccent(
        sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, ''))) $$;
    CREATE FUNCTION aplt_product_search_vector(sku text, name_nl text, name_en text, name_de text, brand text,
        material text, description_nl text, description_en text, description_de text) RETURNS tsvector
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, ''))), 'A')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(brand, '') || ' ' || coalesce(material, ''))), 'B')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(description_nl, '') || ' ' || coalesce(description_en, '') || ' ' || coalesce(description_de, ''))), 'C') $$;

    ALTER TABLE aplt_products DROP COLUMN search_text, DROP COLUMN search_vector;

    CREATE TABLE aplt_product_search (
      product_id bigint PRIMARY KEY REFERENCES aplt_products (id) ON DELETE CASCADE,
      source_updated_at timestamptz NOT NULL,
      source_md5 uuid NOT NULL,
      search_text text NOT NULL,
      search_vector tsvector NOT NULL,
      indexed_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_product_search IS 'Search document per product (derived, never edited): filled by aplt_refresh_product_search() after product writes. source_updated_at is the aplt_products.updated_at that was looked at last; source_md5 the fingerprint of the indexed text; indexed_at when the document was last computed.';
    CREATE INDEX aplt_product_search_vector_idx ON aplt_product_search USING gin (search_vector);
    CREATE INDEX aplt_product_search_trgm_idx ON aplt_product_search USING gin (search_text gin_trgm_ops);

    -- Indexes the products whose row changed since their last indexing (or that have none yet);
    -- returns how many search documents it (re)computed. A product whose row changed but whose
    -- text did not (a new price) only has its source_updated_at moved on. The documents are
    -- computed first into a temporary table by a plain SELECT, which Postgres may spread over
    -- parallel workers (to_tsvector is most of the cost; an INSERT ... SELECT never runs in
    -- parallel), then written in one statement. Refreshes are serialised per database
    -- (transaction-level advisory lock), so two writers never index the same rows in crossed order.
    CREATE FUNCTION aplt_refresh_product_search() RETURNS integer
      LANGUAGE plpgsql AS $fn$
    DECLARE
      n integer;
    BEGIN
      PERFORM pg_advisory_xact_lock('aplt_product_search'::regclass::oid::bigint);
      DROP TABLE IF EXISTS aplt_product_search_refresh;
      CREATE TEMP TABLE aplt_product_search_refresh ON COMMIT DROP AS
        SELECT c.id, c.updated_at, c.md5, c.old_md5 IS DISTINCT FROM c.md5 AS fresh,
          CASE WHEN c.old_md5 = c.md5 THEN c.old_text
            ELSE aplt_product_search_text(c.sku, c.name_nl, c.name_en, c.name_de) END AS search_text,
          CASE WHEN c.old_md5 = c.md5 THEN c.old_vector
            ELSE aplt_product_search_vector(c.sku, c.name_nl, c.name_en, c.name_de, c.brand, c.material,
              c.description_nl, c.description_en, c.description_de) END AS search_vector
        FROM (
          SELECT p.id, p.updated_at, p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material,
            p.description_nl, p.description_en, p.description_de,
            aplt_product_search_source(p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material,
              p.description_nl, p.description_en, p.description_de) AS md5,
            x.source_md5 AS old_md5, x.search_text AS old_text, x.search_vector AS old_vector
          FROM aplt_products p LEFT JOIN aplt_product_search x ON x.product_id = p.id
          WHERE x.product_id IS NULL OR x.source_updated_at IS DISTINCT FROM p.updated_at
        ) c;
      INSERT INTO aplt_product_search AS s (product_id, source_updated_at, source_md5, search_text, search_vector)
      SELECT r.id, r.updated_at, r.md5, r.search_text, r.search_vector
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
    $fn$;
    SELECT aplt_refresh_product_search();

    -- SKU registry: new rows are registered once per statement from its transition table.
    DROP TRIGGER aplt_products_register_sku_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_register_sku_trg ON aplt_product_variants;
    CREATE FUNCTION aplt_products_register_new_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO aplt_skus (sku, product_id) SELECT n.sku, n.id FROM new_rows n;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_product_variants_register_new_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO aplt_skus (sku, product_id, variant_id) SELECT n.sku, n.product_id, n.id FROM new_rows n;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_products_register_new_skus_trg
      AFTER INSERT ON aplt_products REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_products_register_new_skus();
    CREATE TRIGGER aplt_product_variants_register_new_skus_trg
      AFTER INSERT ON aplt_product_variants REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_product_variants_register_new_skus();
    -- A changed SKU (rare) keeps its per-row trigger: transition tables cannot watch single columns.
    CREATE TRIGGER aplt_products_register_sku_trg
      AFTER UPDATE OF sku ON aplt_products
      FOR EACH ROW EXECUTE FUNCTION aplt_products_register_sku();
    CREATE TRIGGER aplt_product_variants_register_sku_trg
      AFTER UPDATE OF sku, product_id ON aplt_product_variants
      FOR EACH ROW EXECUTE FUNCTION aplt_product_variants_register_sku();
    -- The registry's own foreign keys to products and variants made every registered SKU lock
    -- its product or variant row again (a key-share lock, written to disk): more than half of the
    -- registry's cost in an import. The triggers are the only writers of the registry, so its
    -- rows follow deletes through statement triggers instead of ON DELETE CASCADE.
    ALTER TABLE aplt_skus DROP CONSTRAINT aplt_skus_product_id_fkey, DROP CONSTRAINT aplt_skus_variant_id_fkey;
    CREATE FUNCTION aplt_products_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      -- Variant SKUs went with the variants (their delete cascades from the product).
      DELETE FROM aplt_skus s USING old_rows o WHERE s.product_id = o.id AND s.variant_id IS NULL;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_product_variants_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_skus s USING old_rows o WHERE s.variant_id = o.id;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_catalog_truncate_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'aplt_products' THEN
        DELETE FROM aplt_skus;
      ELSE
        DELETE FROM aplt_skus WHERE variant_id IS NOT NULL;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_products_unregister_skus_trg
      AFTER DELETE ON aplt_products REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_products_unregister_skus();
    CREATE TRIGGER aplt_product_variants_unregister_skus_trg
      AFTER DELETE ON aplt_product_variants REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_product_variants_unregister_skus();
    CREATE TRIGGER aplt_products_truncate_skus_trg
      AFTER TRUNCATE ON aplt_products FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_skus();
    CREATE TRIGGER aplt_product_variants_truncate_skus_trg
      AFTER TRUNCATE ON aplt_product_variants FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_skus();
    COMMENT ON TABLE aplt_skus IS 'Every SKU that exists in aplt_products or aplt_product_variants, maintained by triggers on those tables (inserts and deletes once per statement, a SKU change per row; do not write directly). A SKU is unique across products and variants. aplt_stock.sku references it, so stock for an unknown SKU is a foreign-key violation, and stock goes when its SKU goes.';

    DROP INDEX aplt_products_supplier_code_idx;
    DROP INDEX aplt_product_variants_base_sku_idx;
    DROP INDEX aplt_products_discount_group_idx;
    CREATE INDEX aplt_products_discount_group_idx ON aplt_products (discount_group_id) WHERE discount_group_id IS NOT NULL;
    DROP INDEX aplt_products_vat_code_idx;
    CREATE INDEX aplt_products_vat_code_idx ON aplt_products (vat_code_id) WHERE vat_code_id IS NOT NULL;
    DROP INDEX aplt_product_variants_color_idx;
    CREATE INDEX aplt_product_variants_color_idx ON aplt_product_variants (color_id) WHERE color_id IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX aplt_product_variants_color_idx;
    CREATE INDEX aplt_product_variants_color_idx ON aplt_product_variants (color_id);
    DROP INDEX aplt_products_vat_code_idx;
    CREATE INDEX aplt_products_vat_code_idx ON aplt_products (vat_code_id);
    DROP INDEX aplt_products_discount_group_idx;
    CREATE INDEX aplt_products_discount_group_idx ON aplt_products (discount_group_id);
    CREATE INDEX aplt_product_variants_base_sku_idx ON aplt_product_variants (base_sku);
    CREATE INDEX aplt_products_supplier_code_idx ON aplt_products (supplier_code);

    DROP TRIGGER aplt_products_unregister_skus_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_unregister_skus_trg ON aplt_product_variants;
    DROP TRIGGER aplt_products_truncate_skus_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_truncate_skus_trg ON aplt_product_variants;
    DROP FUNCTION aplt_products_unregister_skus();
    DROP FUNCTION aplt_product_variants_unregister_skus();
    DROP FUNCTION aplt_catalog_truncate_skus();
    ALTER TABLE aplt_skus
      ADD CONSTRAINT aplt_skus_product_id_fkey FOREIGN KEY (product_id) REFERENCES aplt_products (id) ON DELETE CASCADE,
      ADD CONSTRAINT aplt_skus_variant_id_fkey FOREIGN KEY (variant_id) REFERENCES aplt_product_variants (id) ON DELETE CASCADE;
    DROP TRIGGER aplt_products_register_new_skus_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_register_new_skus_trg ON aplt_product_variants;
    DROP TRIGGER aplt_products_register_sku_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_register_sku_trg ON aplt_product_variants;
    DROP FUNCTION aplt_products_register_new_skus();
    DROP FUNCTION aplt_product_variants_register_new_skus();
    CREATE TRIGGER aplt_products_register_sku_trg
      AFTER INSERT OR UPDATE OF sku ON aplt_products
      FOR EACH ROW EXECUTE FUNCTION aplt_products_register_sku();
    CREATE TRIGGER aplt_product_variants_register_sku_trg
      AFTER INSERT OR UPDATE OF sku, product_id ON aplt_product_variants
      FOR EACH ROW EXECUTE FUNCTION aplt_product_variants_register_sku();

    DROP FUNCTION aplt_refresh_product_search();
    DROP TABLE aplt_product_search;
    ALTER TABLE aplt_products
      ADD COLUMN search_text text GENERATED ALWAYS AS (
        lower(aplt_f_unaccent(
          sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '')
        ))
      ) STORED,
      ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '')
        )), 'A')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(brand, '') || ' ' || coalesce(material, '')
        )), 'B')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(description_nl, '') || ' ' || coalesce(description_en, '') || ' ' || coalesce(description_de, '')
        )), 'C')
      ) STORED;
    CREATE INDEX aplt_products_search_vector_idx ON aplt_products USING gin (search_vector);
    CREATE INDEX aplt_products_search_trgm_idx ON aplt_products USING gin (search_text gin_trgm_ops);
    DROP FUNCTION aplt_product_search_vector(text, text, text, text, text, text, text, text, text);
    DROP FUNCTION aplt_product_search_text(text, text, text, text);
    DROP FUNCTION aplt_product_search_source(text, text, text, text, text, text, text, text, text);
  `.execute(db);
}
