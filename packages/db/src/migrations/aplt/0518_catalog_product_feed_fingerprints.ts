import { type Kysely, sql } from 'kysely';

/**
 * A products run leaves an unchanged record alone without staging it (issue #17).
 *
 * A products feed of 100,000 records that had not changed since the last run was still staged
 * whole: 230 MB by COPY, then compared column by column with aplt_products and its variants.
 * That took 5 to 6 s of database time and wrote nothing. Now the run keeps a fingerprint of every
 * record it wrote in aplt_products.feed_fingerprint. It is a hash of the normalised record, the
 * product's columns and its variants, as the run staged it. A record whose fingerprint matches
 * is counted unchanged in Node and never reaches the database.
 *
 * The fingerprint only means "the product and its variants are what that record made of them"
 * while nobody else has changed them. So every other writer clears it:
 * - a change to one of the product's fed columns (a row trigger, UPDATE OF those columns, only
 *   when a value changes and the statement does not set the fingerprint itself);
 * - any insert, update, delete or truncate of its variants (statement triggers). The products run
 *   writes the variants right after the product row that carries their fingerprint, so it marks
 *   its transaction (aplt.feed_fingerprints = 'writing') and these triggers leave its writes alone.
 * The next run then finds no fingerprint, stages the record and compares it as before. So an
 * edit made between two runs is overwritten by the feed exactly as it was without fingerprints.
 */
const fedColumns = [
  'sku',
  'supplier_sku',
  'name_nl',
  'name_en',
  'name_de',
  'description_nl',
  'description_en',
  'description_de',
  'brand',
  'material',
  'dimensions',
  'country_of_origin',
  'supplier_category_code',
  'printable',
  'number_of_print_positions',
  'image_url',
  'images',
];
const row = (alias: 'OLD' | 'NEW') => sql.raw(`(${fedColumns.map((c) => `${alias}.${c}`).join(', ')})`);
const notTheRun = sql.raw(`current_setting('aplt.feed_fingerprints', true) IS DISTINCT FROM 'writing'`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aplt_products ADD COLUMN feed_fingerprint uuid`.execute(db);
  await sql`COMMENT ON COLUMN aplt_products.feed_fingerprint IS ${sql.lit(
    'Hash of the products-feed record that last wrote this product and its variants; NULL once anything else changed them (triggers). A run skips a record with the same hash.',
  )}`.execute(db);
  await sql`
    CREATE FUNCTION aplt_products_clear_feed_fingerprint() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      NEW.feed_fingerprint := NULL;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER aplt_products_feed_fingerprint_trg
      BEFORE UPDATE OF ${sql.raw(fedColumns.join(', '))} ON aplt_products
      FOR EACH ROW WHEN (NEW.feed_fingerprint IS NOT NULL
        AND NEW.feed_fingerprint IS NOT DISTINCT FROM OLD.feed_fingerprint
        AND ${row('OLD')} IS DISTINCT FROM ${row('NEW')})
      EXECUTE FUNCTION aplt_products_clear_feed_fingerprint()`.execute(db);
  // One function for the variant triggers; which transition tables exist depends on the event.
  await sql`
    CREATE FUNCTION aplt_product_variants_clear_feed_fingerprints() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        UPDATE aplt_products SET feed_fingerprint = NULL WHERE feed_fingerprint IS NOT NULL;
      ELSIF TG_OP = 'INSERT' THEN
        UPDATE aplt_products p SET feed_fingerprint = NULL
        WHERE p.feed_fingerprint IS NOT NULL AND p.id IN (SELECT product_id FROM new_rows);
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE aplt_products p SET feed_fingerprint = NULL
        WHERE p.feed_fingerprint IS NOT NULL AND p.id IN (SELECT product_id FROM old_rows);
      ELSE
        UPDATE aplt_products p SET feed_fingerprint = NULL
        WHERE p.feed_fingerprint IS NOT NULL
          AND p.id IN (SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  for (const [event, tables] of [
    ['INSERT', 'REFERENCING NEW TABLE AS new_rows'],
    ['UPDATE', 'REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows'],
    ['DELETE', 'REFERENCING OLD TABLE AS old_rows'],
    ['TRUNCATE', ''],
  ] as const)
    await sql`
      CREATE TRIGGER ${sql.raw(`aplt_product_variants_${event.toLowerCase()}_feed_fingerprints_trg`)}
        AFTER ${sql.raw(event)} ON aplt_product_variants ${sql.raw(tables)}
        FOR EACH STATEMENT WHEN (${notTheRun})
        EXECUTE FUNCTION aplt_product_variants_clear_feed_fingerprints()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate'])
    await sql`DROP TRIGGER ${sql.raw(`aplt_product_variants_${event}_feed_fingerprints_trg`)} ON aplt_product_variants`.execute(
      db,
    );
  await sql`DROP FUNCTION aplt_product_variants_clear_feed_fingerprints()`.execute(db);
  await sql`DROP TRIGGER aplt_products_feed_fingerprint_trg ON aplt_products`.execute(db);
  await sql`DROP FUNCTION aplt_products_clear_feed_fingerprint()`.execute(db);
  await sql`ALTER TABLE aplt_products DROP COLUMN feed_fingerprint`.execute(db);
}
