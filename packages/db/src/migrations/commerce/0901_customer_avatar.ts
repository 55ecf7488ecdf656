import { type Kysely, sql } from 'kysely';

/**
 * Storefront account extensions (issue #15). A customer's avatar is kept in the database, not
 * on disk: it is small (at most 2 MB as uploaded, stored re-encoded and at most 512 px wide), it
 * belongs to the customer row and goes with it, and every replica of the auth service reads the
 * same bytes without a shared volume. customer.metadata keeps avatar_url (the versioned URL the
 * storefront shows), preferred_language and notifications.
 *
 * Account deletion is a soft delete (customer.deleted_at, auth_identity.deleted_at) and, after
 * the configured delay, anonymisation: anonymised_at marks a customer whose personal data is gone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE customer_avatar (
      customer_id text PRIMARY KEY REFERENCES customer (id) ON DELETE CASCADE,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
      data bytea NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 2097152),
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0),
      sha256 char(64) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE customer_avatar IS 'A storefront customer''s avatar: checked by content (JPEG or PNG, decodable), re-encoded without metadata, served only to its owner.';

    ALTER TABLE customer ADD COLUMN anonymised_at timestamptz;
    COMMENT ON COLUMN customer.anonymised_at IS 'Set by the anonymisation job (a configured number of days after deleted_at): e-mail, names, phone, company, metadata and avatar are gone; documents keep their own copies.';
    CREATE INDEX customer_deleted_not_anonymised_idx ON customer (deleted_at)
      WHERE deleted_at IS NOT NULL AND anonymised_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS customer_deleted_not_anonymised_idx;
    ALTER TABLE customer DROP COLUMN IF EXISTS anonymised_at;
    DROP TABLE IF EXISTS customer_avatar;
  `.execute(db);
}
