import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE tenants (
      id text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9_]{0,49}$'),
      kind text NOT NULL CHECK (kind IN ('master', 'pim', 'tenant')),
      name text NOT NULL,
      -- {database, host?, port?, user?, password?}; absent fields fall back to the service's defaults.
      commerce_db jsonb NOT NULL CHECK (commerce_db ? 'database'),
      aplt_db jsonb NOT NULL CHECK (aplt_db ? 'database'),
      admin_base_url text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX tenants_single_master ON tenants (kind) WHERE kind = 'master';
    CREATE TABLE tenant_hosts (
      host text PRIMARY KEY CHECK (host = lower(host)),
      tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE
    );
    CREATE INDEX tenant_hosts_tenant ON tenant_hosts (tenant_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE tenant_hosts; DROP TABLE tenants;`.execute(db);
}
