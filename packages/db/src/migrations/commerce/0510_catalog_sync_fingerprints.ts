import { type Kysely, sql } from 'kysely';

/**
 * What the commerce sync last wrote for each aplt product, as a fingerprint of everything it
 * copies (names, descriptions, images, variants, retail tiers, categories). A product whose
 * fingerprint is unchanged is neither read in full nor rewritten, so a sync after a small change
 * costs a scan of fingerprints instead of a copy of the catalog.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE catalog_sync_fingerprint (
      external_id text PRIMARY KEY,
      fingerprint uuid NOT NULL,
      synced_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE catalog_sync_fingerprint IS 'Commerce sync bookkeeping: md5 of the aplt product projection last written for product.external_id. Rows go when the sync removes the product; delete rows (or run a full sync) to have products rewritten.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE catalog_sync_fingerprint`.execute(db);
}
