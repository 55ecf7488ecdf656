import { type Kysely, sql } from 'kysely';

/**
 * Storefront customers may use an authenticator app (TOTP, RFC 6238) instead of e-mailed codes.
 * `otp_secret` (spec 1's column for it) holds the app's secret sealed with AES-256-GCM under
 * AUTH_TOTP_KEY, bound to the row: a secret cannot be hashed like a password, and a database
 * dump alone must not hand out every customer's second factor. The sealed form is longer than the
 * spec's 64 characters, so the column becomes text. `totp_last_step` is the last time step a code
 * was accepted for: a seen code cannot be replayed, and of two concurrent logins with one code
 * only one can move it. An enrolment waits as a pending secret until a code proves the app has it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_customer_2fa
      ALTER COLUMN otp_secret TYPE text,
      ADD COLUMN method varchar(16) NOT NULL DEFAULT 'email'
        CONSTRAINT aplt_customer_2fa_method CHECK (method IN ('email', 'authenticator')),
      ADD COLUMN totp_last_step bigint,
      ADD COLUMN totp_pending_secret text,
      ADD COLUMN totp_pending_expires_at timestamptz,
      ADD CONSTRAINT aplt_customer_2fa_authenticator_secret
        CHECK ((method = 'authenticator') = (otp_secret IS NOT NULL)),
      ADD CONSTRAINT aplt_customer_2fa_pending_expiry
        CHECK ((totp_pending_secret IS NULL) = (totp_pending_expires_at IS NULL));
    COMMENT ON COLUMN aplt_customer_2fa.method IS 'How the second step is proved: email (a 6-digit code is sent) or authenticator (TOTP app).';
    COMMENT ON COLUMN aplt_customer_2fa.otp_secret IS 'The authenticator app''s secret, sealed (AES-256-GCM under AUTH_TOTP_KEY, bound to tenant and row); null for e-mailed codes.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE aplt_customer_2fa SET otp_secret = NULL WHERE method = 'authenticator';
    UPDATE aplt_customer_2fa SET is_enabled = false WHERE method = 'authenticator';
    ALTER TABLE aplt_customer_2fa
      DROP CONSTRAINT aplt_customer_2fa_pending_expiry,
      DROP CONSTRAINT aplt_customer_2fa_authenticator_secret,
      DROP COLUMN totp_pending_expires_at,
      DROP COLUMN totp_pending_secret,
      DROP COLUMN totp_last_step,
      DROP COLUMN method,
      ALTER COLUMN otp_secret TYPE varchar(64);
  `.execute(db);
}
