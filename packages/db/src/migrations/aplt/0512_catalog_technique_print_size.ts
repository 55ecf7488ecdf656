import { type Kysely, sql } from 'kysely';

/**
 * The print size of a technique at a position. Suppliers that list print data per technique
 * (XD's tab-separated rows, Makito's printjob areas) give each technique its own maximum size at
 * the same position: laser engraving may allow 45x7 mm on a barrel where pad print allows 40x7.
 * aplt_print_positions keeps the largest size at the position; these columns keep each
 * technique's own (NULL: the position's size applies, as in Midocean's per-position feeds).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_product_techniques
      ADD COLUMN max_width_mm numeric(8,2) CHECK (max_width_mm > 0),
      ADD COLUMN max_height_mm numeric(8,2) CHECK (max_height_mm > 0),
      ADD COLUMN print_area text CHECK (print_area ~ '^[0-9]+([.][0-9]+)?x[0-9]+([.][0-9]+)?$');
    COMMENT ON COLUMN aplt_product_techniques.print_area IS 'Print area in mm (<width>x<height>) of this technique at this position; NULL: the print area of the position applies.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aplt_product_techniques DROP COLUMN max_width_mm, DROP COLUMN max_height_mm, DROP COLUMN print_area`.execute(
    db,
  );
}
