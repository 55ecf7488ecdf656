import { type Kysely, sql } from 'kysely';

/**
 * The SKU registry is kept in step through its key, the SKU, alone: a renamed or deleted product
 * or variant finds its registry row by its old SKU (the primary key). The indexes on product_id
 * and variant_id served only those lookups, and every SKU an import registers paid for them (two
 * of the registry's three index inserts). Uniqueness per product and per variant needs no index:
 * the triggers, the registry's only writers, register each product and each variant once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION aplt_products_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id) VALUES (NEW.sku, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku THEN
        UPDATE aplt_skus SET sku = NEW.sku WHERE sku = OLD.sku;
      END IF;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_product_variants_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id, variant_id) VALUES (NEW.sku, NEW.product_id, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku OR NEW.product_id IS DISTINCT FROM OLD.product_id THEN
        UPDATE aplt_skus SET sku = NEW.sku, product_id = NEW.product_id WHERE sku = OLD.sku;
      END IF;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_products_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      -- Variant SKUs went with the variants (their delete cascades from the product).
      DELETE FROM aplt_skus s USING old_rows o WHERE s.sku = o.sku;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_product_variants_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_skus s USING old_rows o WHERE s.sku = o.sku;
      RETURN NULL;
    END $$;
    ALTER TABLE aplt_skus DROP CONSTRAINT aplt_skus_variant_id_key;
    DROP INDEX aplt_skus_product_base_idx;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE UNIQUE INDEX aplt_skus_product_base_idx ON aplt_skus (product_id) WHERE variant_id IS NULL;
    ALTER TABLE aplt_skus ADD CONSTRAINT aplt_skus_variant_id_key UNIQUE (variant_id);
    CREATE OR REPLACE FUNCTION aplt_products_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id) VALUES (NEW.sku, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku THEN
        UPDATE aplt_skus SET sku = NEW.sku WHERE product_id = NEW.id AND variant_id IS NULL;
      END IF;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_product_variants_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id, variant_id) VALUES (NEW.sku, NEW.product_id, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku OR NEW.product_id IS DISTINCT FROM OLD.product_id THEN
        UPDATE aplt_skus SET sku = NEW.sku, product_id = NEW.product_id WHERE variant_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_products_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_skus s USING old_rows o WHERE s.product_id = o.id AND s.variant_id IS NULL;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION aplt_product_variants_unregister_skus() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_skus s USING old_rows o WHERE s.variant_id = o.id;
      RETURN NULL;
    END $$;
  `.execute(db);
}
