import { type Kysely, sql } from 'kysely';

/**
 * Customer returns from the storefront (issue #15): returns are numbered R-<yyyy>-<nnnn> from
 * the same gapless counters as the documents, a photo records its digest, and a returned
 * quantity per invoice line is summed through an index on the lines of returns still in play.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_number_sequences DROP CONSTRAINT aplt_number_sequences_prefix_check;
    ALTER TABLE aplt_number_sequences ADD CONSTRAINT aplt_number_sequences_prefix_check
      CHECK (prefix IN ('Q', 'O', 'F', 'C', 'P', 'B', 'R'));

    ALTER TABLE aplt_returns ADD CONSTRAINT aplt_returns_number_shape
      CHECK (return_number IS NULL OR return_number ~ '^R-[0-9]{4}-[0-9]{4,}$');

    ALTER TABLE aplt_return_photos ADD COLUMN sha256 char(64);
    ALTER TABLE aplt_return_photos ADD COLUMN width integer CHECK (width > 0);
    ALTER TABLE aplt_return_photos ADD COLUMN height integer CHECK (height > 0);
    COMMENT ON COLUMN aplt_return_photos.file_path IS 'Relative to the documents service''s RETURN_PHOTO_DIR: <tenant>/returns/<random folder per return>/<slot>-<sha256 prefix>.<ext>. The stored bytes are the upload re-encoded without metadata (no EXIF location).';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_return_photos DROP COLUMN IF EXISTS height;
    ALTER TABLE aplt_return_photos DROP COLUMN IF EXISTS width;
    ALTER TABLE aplt_return_photos DROP COLUMN IF EXISTS sha256;
    ALTER TABLE aplt_returns DROP CONSTRAINT IF EXISTS aplt_returns_number_shape;
    ALTER TABLE aplt_number_sequences DROP CONSTRAINT aplt_number_sequences_prefix_check;
    ALTER TABLE aplt_number_sequences ADD CONSTRAINT aplt_number_sequences_prefix_check
      CHECK (prefix IN ('Q', 'O', 'F', 'C', 'P', 'B'));
  `.execute(db);
}
