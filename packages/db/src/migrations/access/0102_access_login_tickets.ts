import { type Kysely, sql } from 'kysely';

/**
 * Login hand-over to the other hosts of the fleet. A session cookie is host-only unless a
 * parent cookie domain is configured, so after a login on the access host the browser carries a
 * one-time ticket to the protected host, whose forward-auth check redeems it for a session of
 * its own. Child sessions end with the session they were made from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE access_sessions
      ADD COLUMN parent_id text REFERENCES access_sessions(id) ON DELETE CASCADE,
      ADD COLUMN host text;
    CREATE INDEX access_sessions_parent ON access_sessions (parent_id) WHERE parent_id IS NOT NULL;
    CREATE TABLE access_login_tickets (
      -- sha256 of the ticket, like every other token here.
      id text PRIMARY KEY,
      session_id text NOT NULL REFERENCES access_sessions(id) ON DELETE CASCADE,
      host text NOT NULL,
      return_url text NOT NULL,
      -- The login also trusted the device: the host gets a device-token cookie of its own.
      trust_device boolean NOT NULL DEFAULT false,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    );
    CREATE INDEX access_login_tickets_expires ON access_login_tickets (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE access_login_tickets;
    ALTER TABLE access_sessions DROP COLUMN parent_id, DROP COLUMN host;
  `.execute(db);
}
