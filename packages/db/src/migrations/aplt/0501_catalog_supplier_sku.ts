import { type Kysely, sql } from 'kysely';

/**
 * Suppliers address stock and prices by their own variant SKU (e.g. MO8422-03), while our
 * variant SKUs are <base>.<colour>. Keeping the supplier's SKU on the variant lets the stock and
 * price connectors resolve a feed row with one indexed join instead of parsing SKUs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_product_variants ADD COLUMN supplier_sku text;
    COMMENT ON COLUMN aplt_product_variants.supplier_sku IS 'The supplier''s own SKU of this variant, as used in its stock and price feeds.';
    CREATE INDEX aplt_product_variants_supplier_sku_idx ON aplt_product_variants (supplier_sku);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aplt_product_variants DROP COLUMN IF EXISTS supplier_sku`.execute(db);
}
