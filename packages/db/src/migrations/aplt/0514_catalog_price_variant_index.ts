import { type Kysely, sql } from 'kysely';

/**
 * One index fewer for every price tier a connector writes (issue #17: a 100,000-product price
 * feed writes 1,800,000 tiers). Nothing looks tiers up by variant alone: the readers ask for a
 * product's tiers (product_id first), and the cascade from a deleted variant looks its tiers up
 * by (variant_id, product_id), which the unique key (product_id, variant_id, price_list,
 * min_quantity) answers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX aplt_product_prices_variant_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX aplt_product_prices_variant_idx ON aplt_product_prices (variant_id)`.execute(db);
}
