import { type Kysely, sql } from 'kysely';

/**
 * Two fewer indexes for every variant a connector writes (issue #7: they were a fifth of the cost
 * of inserting a variant). The unique key behind the price tiers' (variant_id, product_id)
 * foreign key now leads with product_id, so it also answers "the variants of a product" and the
 * product_id index is redundant; nothing looks variants up by GTIN.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_product_prices DROP CONSTRAINT aplt_product_prices_variant_fk;
    ALTER TABLE aplt_product_variants DROP CONSTRAINT aplt_product_variants_id_product_key,
      ADD CONSTRAINT aplt_product_variants_product_id_key UNIQUE (product_id, id);
    ALTER TABLE aplt_product_prices ADD CONSTRAINT aplt_product_prices_variant_fk FOREIGN KEY (variant_id, product_id)
      REFERENCES aplt_product_variants (id, product_id) ON DELETE CASCADE;
    DROP INDEX aplt_product_variants_product_idx;
    DROP INDEX aplt_product_variants_gtin_idx;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX aplt_product_variants_gtin_idx ON aplt_product_variants (gtin);
    CREATE INDEX aplt_product_variants_product_idx ON aplt_product_variants (product_id);
    ALTER TABLE aplt_product_prices DROP CONSTRAINT aplt_product_prices_variant_fk;
    ALTER TABLE aplt_product_variants DROP CONSTRAINT aplt_product_variants_product_id_key,
      ADD CONSTRAINT aplt_product_variants_id_product_key UNIQUE (id, product_id);
    ALTER TABLE aplt_product_prices ADD CONSTRAINT aplt_product_prices_variant_fk FOREIGN KEY (variant_id, product_id)
      REFERENCES aplt_product_variants (id, product_id) ON DELETE CASCADE;
  `.execute(db);
}
