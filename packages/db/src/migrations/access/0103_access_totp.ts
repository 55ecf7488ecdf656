import { type Kysely, sql } from 'kysely';

/**
 * Authenticator-app second factor (TOTP, RFC 6238) beside the e-mailed code. The shared secret is
 * stored encrypted (AES-256-GCM under ACCESS_TOTP_KEY): unlike a password it cannot be hashed, and
 * a database dump alone must not hand out every second factor. `totp_last_step` is the last time
 * step a code was accepted for, so an observed code cannot be replayed within its window.
 * Recovery codes are stored as sha256 hashes and spent once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE access_users
      ADD COLUMN totp_secret text,
      ADD COLUMN totp_enabled_at timestamptz,
      ADD COLUMN totp_last_step bigint,
      -- An enrolment in progress: its secret is only adopted once a code from the app proves it.
      ADD COLUMN totp_pending_secret text,
      ADD COLUMN totp_pending_expires_at timestamptz,
      ADD CONSTRAINT access_users_totp_enabled CHECK ((totp_secret IS NULL) = (totp_enabled_at IS NULL));
    CREATE TABLE access_recovery_codes (
      user_id int NOT NULL REFERENCES access_users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, code_hash)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE access_recovery_codes;
    ALTER TABLE access_users
      DROP CONSTRAINT access_users_totp_enabled,
      DROP COLUMN totp_secret,
      DROP COLUMN totp_enabled_at,
      DROP COLUMN totp_last_step,
      DROP COLUMN totp_pending_secret,
      DROP COLUMN totp_pending_expires_at;
  `.execute(db);
}
