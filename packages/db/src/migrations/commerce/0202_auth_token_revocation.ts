import { type Kysely, sql } from 'kysely';

/**
 * Revocation of session tokens. A completed password reset or change (and the password sync
 * that copies it into another tenant) stores the moment here; every admin or customer JWT of
 * that identity issued before it is refused from then on, Medusa cookie sessions included (the
 * cookie carries the token). One row per identity, read by primary key on every authenticated
 * request, so the check costs one index lookup.
 *
 * Reset tokens: a new one spends every earlier unused one of the identity, and a completed
 * reset spends them all; the index serves both updates.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE auth_token_revocation (
      auth_identity_id text PRIMARY KEY REFERENCES auth_identity (id) ON DELETE CASCADE,
      not_before timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN auth_token_revocation.not_before IS 'Tokens of this identity issued earlier (claim iat_ms, else iat) are refused.';
    CREATE INDEX auth_reset_token_unused_idx ON auth_reset_token (entity_id, provider) WHERE used_at IS NULL;
    COMMENT ON COLUMN auth_reset_token.used_at IS 'When the token was spent: used for a reset, superseded by a newer token, or voided by a completed password change.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX IF EXISTS auth_reset_token_unused_idx;
    DROP TABLE IF EXISTS auth_token_revocation;
  `.execute(db);
}
