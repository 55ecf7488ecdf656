import { type Kysely, sql } from 'kysely';

/**
 * The access service's tables. tenant_licenses and tenant_license_audit are exactly as spec 2
 * gives them; everything the spec leaves open (users, sessions, revisions, trials, throttling)
 * lives in tables of its own so those two stay untouched.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE access_users (
      id serial PRIMARY KEY,
      email varchar(255) NOT NULL UNIQUE CHECK (email = lower(email)),
      password_hash text NOT NULL,
      -- 'access-admin' manages users/whitelist/bans; 'license-admin' may change licenses.
      roles text[] NOT NULL DEFAULT '{}',
      -- Set for a tenant's own admins: they see their tenant's licenses read-only.
      tenant_id varchar(50),
      password_changed_at timestamptz NOT NULL DEFAULT now(),
      must_change_password boolean NOT NULL DEFAULT false,
      disabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- The last N hashes per user, for the no-reuse rule.
    CREATE TABLE access_password_history (
      id serial PRIMARY KEY,
      user_id int NOT NULL REFERENCES access_users(id) ON DELETE CASCADE,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX access_password_history_user ON access_password_history (user_id, created_at DESC);
    -- Tokens are stored only as sha256 hashes: a database leak does not leak live cookies.
    CREATE TABLE access_sessions (
      id text PRIMARY KEY,
      user_id int NOT NULL REFERENCES access_users(id) ON DELETE CASCADE,
      ip text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX access_sessions_user ON access_sessions (user_id);
    CREATE TABLE access_device_tokens (
      id text PRIMARY KEY,
      user_id int NOT NULL REFERENCES access_users(id) ON DELETE CASCADE,
      label text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX access_device_tokens_user ON access_device_tokens (user_id);
    CREATE TABLE access_ip_whitelist (
      id serial PRIMARY KEY,
      cidr cidr NOT NULL UNIQUE,
      note text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- A login in progress: password and CAPTCHA passed, waiting for the one-time code.
    CREATE TABLE access_login_challenges (
      id text PRIMARY KEY,
      user_id int NOT NULL REFERENCES access_users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      channel text NOT NULL,
      state text NOT NULL DEFAULT 'otp' CHECK (state IN ('otp', 'change_password', 'done')),
      trust_device boolean NOT NULL DEFAULT false,
      attempts int NOT NULL DEFAULT 0,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    -- Failure counters and bans per account ('acct:<email>') and per IP ('ip:<addr>').
    CREATE TABLE access_throttle (
      key text PRIMARY KEY,
      failures int NOT NULL DEFAULT 0,
      window_started_at timestamptz NOT NULL DEFAULT now(),
      banned_until timestamptz
    );
    -- Spent CAPTCHA solutions (replay store), kept until the challenge would have expired anyway.
    CREATE TABLE access_captcha_spent (
      signature text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    );

    CREATE TABLE tenant_licenses (
      id serial PRIMARY KEY,
      tenant_id varchar(50) NOT NULL,
      feature varchar(100) NOT NULL,
      enabled boolean DEFAULT true,
      feature_group varchar(50),
      created_at timestamp DEFAULT now(),
      updated_at timestamp DEFAULT now(),
      UNIQUE (tenant_id, feature)
    );
    CREATE INDEX tenant_licenses_tenant ON tenant_licenses (tenant_id);
    CREATE TABLE tenant_license_audit (
      id serial PRIMARY KEY,
      tenant_id varchar(50) NOT NULL,
      feature varchar(100) NOT NULL,
      old_enabled boolean,
      new_enabled boolean NOT NULL,
      actor_email varchar(255),
      reason text,
      created_at timestamp DEFAULT now()
    );
    CREATE INDEX tenant_license_audit_tenant ON tenant_license_audit (tenant_id);
    -- One counter per tenant, bumped in every write transaction: the ETag and the revision that
    -- clients report, so propagation can be followed.
    CREATE TABLE tenant_license_revisions (
      tenant_id varchar(50) PRIMARY KEY,
      revision bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Trials: an entitlement with an expiry reads as disabled after it.
    CREATE TABLE tenant_license_expiry (
      tenant_id varchar(50) NOT NULL,
      feature varchar(100) NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, feature)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE tenant_license_expiry, tenant_license_revisions, tenant_license_audit, tenant_licenses,
      access_captcha_spent, access_throttle, access_login_challenges, access_ip_whitelist,
      access_device_tokens, access_sessions, access_password_history, access_users;
  `.execute(db);
}
