import { type Kysely, sql } from 'kysely';

/**
 * The tenant's public URLs are registry facts: links in e-mails (password reset, e-mail
 * verification) are built from them, never from a request's Host header, which a client
 * chooses. admin_base_url (the admin panel, /app) exists since 0001; store_base_url is the
 * storefront's origin for customer links. Both must be absolute http(s) URLs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE tenants ADD COLUMN store_base_url text
      CONSTRAINT tenants_store_base_url_http CHECK (store_base_url ~ '^https?://[^/?#[:space:]]+');
    ALTER TABLE tenants ADD CONSTRAINT tenants_admin_base_url_http
      CHECK (admin_base_url ~ '^https?://[^/?#[:space:]]+') NOT VALID;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE tenants DROP CONSTRAINT IF EXISTS tenants_admin_base_url_http;
    ALTER TABLE tenants DROP COLUMN IF EXISTS store_base_url;
  `.execute(db);
}
