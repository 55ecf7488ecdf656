import { type Kysely, sql } from 'kysely';

/**
 * Price tiers keep their references to products and variants through statement triggers instead
 * of foreign keys (issue #17), as migration 0510 did for the SKU registry.
 *
 * A price feed of 100,000 products writes 1,800,000 tiers; each tier's two foreign keys ran a
 * lookup and a key-share lock of its product and of its variant, one row at a time: most of the
 * run (a COPY of the same rows took 14 s with the keys and 4 s without them). The same rules now
 * hold once per statement:
 * - New tiers (any INSERT: COPY, INSERT ... SELECT, one row) lock what they reference in one
 *   statement, as the keys did (a variant tier its variant, a product-wide tier its product), so
 *   a concurrent delete waits for this transaction or was already seen; a distinct key that
 *   locked no row refuses the statement with SQLSTATE 23503 (a product or variant that does not
 *   exist, or a variant of another product).
 * - A tier's product_id or variant_id changed by UPDATE (the tenant update sets them, unchanged)
 *   is checked per row, where the value differs.
 * - Deleting or truncating products or variants deletes their tiers (was ON DELETE CASCADE), and
 *   a variant whose id or product changes while tiers name it is refused (was NO ACTION).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_product_prices DROP CONSTRAINT aplt_product_prices_product_id_fkey,
      DROP CONSTRAINT aplt_product_prices_variant_fk;

    CREATE FUNCTION aplt_product_prices_check_new_keys() RETURNS trigger
      LANGUAGE plpgsql AS $$
    DECLARE
      missing bigint;
      bad_product bigint;
      bad_variant bigint;
    BEGIN
      -- One pass: every distinct key locks the one row it references; a key that locked nothing
      -- references nothing (a concurrent delete that committed first is not seen by the lock).
      WITH k AS MATERIALIZED (SELECT DISTINCT n.product_id, n.variant_id FROM new_rows n),
        lv AS (SELECT v.id FROM aplt_product_variants v JOIN k ON v.id = k.variant_id AND v.product_id = k.product_id
          FOR KEY SHARE OF v),
        lp AS (SELECT p.id FROM aplt_products p JOIN k ON p.id = k.product_id AND k.variant_id IS NULL
          FOR KEY SHARE OF p)
      SELECT (SELECT count(*) FROM k) - (SELECT count(*) FROM lv) - (SELECT count(*) FROM lp) INTO missing;
      IF missing > 0 THEN
        SELECT k.product_id, k.variant_id INTO bad_product, bad_variant
          FROM (SELECT DISTINCT n.product_id, n.variant_id FROM new_rows n) k
          WHERE CASE WHEN k.variant_id IS NULL
            THEN NOT EXISTS (SELECT 1 FROM aplt_products p WHERE p.id = k.product_id)
            ELSE NOT EXISTS (SELECT 1 FROM aplt_product_variants v WHERE v.id = k.variant_id AND v.product_id = k.product_id)
          END
          LIMIT 1;
        RAISE EXCEPTION 'insert or update on table "aplt_product_prices" violates its reference to %',
            CASE WHEN bad_variant IS NULL THEN 'aplt_products' ELSE 'aplt_product_variants' END
          USING ERRCODE = 'foreign_key_violation', TABLE = 'aplt_product_prices',
            DETAIL = format('Key (product_id, variant_id)=(%s, %s) is not present.', bad_product,
              coalesce(bad_variant::text, 'NULL'));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_prices_check_new_keys_trg
      AFTER INSERT ON aplt_product_prices REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_product_prices_check_new_keys();

    CREATE FUNCTION aplt_product_prices_check_changed_keys() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.variant_id IS NULL THEN
        PERFORM 1 FROM aplt_products p WHERE p.id = NEW.product_id FOR KEY SHARE OF p;
      ELSE
        PERFORM 1 FROM aplt_product_variants v WHERE v.id = NEW.variant_id AND v.product_id = NEW.product_id
          FOR KEY SHARE OF v;
      END IF;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'insert or update on table "aplt_product_prices" violates its reference to %',
            CASE WHEN NEW.variant_id IS NULL THEN 'aplt_products' ELSE 'aplt_product_variants' END
          USING ERRCODE = 'foreign_key_violation', TABLE = 'aplt_product_prices',
            DETAIL = format('Key (product_id, variant_id)=(%s, %s) is not present.', NEW.product_id,
              coalesce(NEW.variant_id::text, 'NULL'));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_prices_check_changed_keys_trg
      AFTER UPDATE OF product_id, variant_id ON aplt_product_prices
      FOR EACH ROW WHEN ((OLD.product_id, OLD.variant_id) IS DISTINCT FROM (NEW.product_id, NEW.variant_id))
      EXECUTE FUNCTION aplt_product_prices_check_changed_keys();

    -- A product's tiers (its variants' among them) go with it; a variant's with the variant. The
    -- unique key (product_id, variant_id, ...) finds both.
    CREATE FUNCTION aplt_products_delete_prices() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_product_prices x USING old_rows o WHERE x.product_id = o.id;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_product_variants_delete_prices() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_product_prices x USING old_rows o WHERE x.product_id = o.product_id AND x.variant_id = o.id;
      RETURN NULL;
    END $$;
    -- Empties a child table from a parent's TRUNCATE trigger (0516 uses it too). A TRUNCATE that
    -- names the child as well has it open, so TRUNCATE fails there: the child is emptied already
    -- and DELETE finds nothing.
    CREATE FUNCTION aplt_catalog_empty_child(child regclass) RETURNS void
      LANGUAGE plpgsql AS $$
    BEGIN
      EXECUTE format('TRUNCATE %s', child);
    EXCEPTION WHEN object_in_use THEN
      EXECUTE format('DELETE FROM %s', child);
    END $$;
    CREATE FUNCTION aplt_catalog_truncate_prices() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'aplt_products' THEN
        PERFORM aplt_catalog_empty_child('aplt_product_prices');
      ELSE
        DELETE FROM aplt_product_prices WHERE variant_id IS NOT NULL;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_products_delete_prices_trg
      AFTER DELETE ON aplt_products REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_products_delete_prices();
    CREATE TRIGGER aplt_product_variants_delete_prices_trg
      AFTER DELETE ON aplt_product_variants REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_product_variants_delete_prices();
    CREATE TRIGGER aplt_products_truncate_prices_trg
      AFTER TRUNCATE ON aplt_products FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_prices();
    CREATE TRIGGER aplt_product_variants_truncate_prices_trg
      AFTER TRUNCATE ON aplt_product_variants FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_prices();

    CREATE FUNCTION aplt_product_variants_keep_priced_key() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM aplt_product_prices x WHERE x.product_id = OLD.product_id AND x.variant_id = OLD.id) THEN
        RAISE EXCEPTION 'update on table "aplt_product_variants" would leave price tiers without their variant'
          USING ERRCODE = 'foreign_key_violation', TABLE = 'aplt_product_variants',
            DETAIL = format('Key (id, product_id)=(%s, %s) is still referenced from table "aplt_product_prices".',
              OLD.id, OLD.product_id);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_variants_keep_priced_key_trg
      AFTER UPDATE OF id, product_id ON aplt_product_variants
      FOR EACH ROW WHEN ((OLD.id, OLD.product_id) IS DISTINCT FROM (NEW.id, NEW.product_id))
      EXECUTE FUNCTION aplt_product_variants_keep_priced_key();

    COMMENT ON TABLE aplt_product_prices IS 'Tiered (scale) prices: the applicable row is the highest min_quantity not above the ordered quantity; variant_id NULL = product-wide. product_id and (variant_id, product_id) reference aplt_products and aplt_product_variants through statement triggers (migration 0515), not foreign keys: refused with SQLSTATE 23503 when missing, deleted with their product or variant.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER aplt_product_variants_keep_priced_key_trg ON aplt_product_variants;
    DROP TRIGGER aplt_product_variants_truncate_prices_trg ON aplt_product_variants;
    DROP TRIGGER aplt_products_truncate_prices_trg ON aplt_products;
    DROP TRIGGER aplt_product_variants_delete_prices_trg ON aplt_product_variants;
    DROP TRIGGER aplt_products_delete_prices_trg ON aplt_products;
    DROP TRIGGER aplt_product_prices_check_changed_keys_trg ON aplt_product_prices;
    DROP TRIGGER aplt_product_prices_check_new_keys_trg ON aplt_product_prices;
    DROP FUNCTION aplt_product_variants_keep_priced_key(), aplt_catalog_truncate_prices(), aplt_catalog_empty_child(regclass),
      aplt_product_variants_delete_prices(), aplt_products_delete_prices(), aplt_product_prices_check_changed_keys(),
      aplt_product_prices_check_new_keys();
    ALTER TABLE aplt_product_prices
      ADD CONSTRAINT aplt_product_prices_product_id_fkey FOREIGN KEY (product_id)
        REFERENCES aplt_products (id) ON DELETE CASCADE,
      ADD CONSTRAINT aplt_product_prices_variant_fk FOREIGN KEY (variant_id, product_id)
        REFERENCES aplt_product_variants (id, product_id) ON DELETE CASCADE;
    COMMENT ON TABLE aplt_product_prices IS 'Tiered (scale) prices: the applicable row is the highest min_quantity not above the ordered quantity; variant_id NULL = product-wide.';
  `.execute(db);
}
