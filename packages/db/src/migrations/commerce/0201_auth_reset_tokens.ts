import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Password-reset tokens are JWTs; their id (jti) is stored here so each token works once,
    -- unlike Medusa 2.10 whose reset tokens can be replayed within their 15 minutes.
    CREATE TABLE auth_reset_token (
      id text PRIMARY KEY,
      entity_id text NOT NULL,
      provider text NOT NULL,
      actor_type text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN auth_reset_token.id IS 'The jti claim of the reset JWT.';
    CREATE INDEX auth_reset_token_expires_idx ON auth_reset_token (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS auth_reset_token`.execute(db);
}
