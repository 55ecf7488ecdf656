import { type Kysely, sql } from 'kysely';

/**
 * Every partner sync row has an idempotency key. Rows from before 0920 (synced by the agent or
 * n8n) had none, and a forced resend of one sent the header `Idempotency-Key: null`: the same
 * key for every such order, so the partner could take two different orders for one. They get a
 * key of their own, stable across resends (`legacy-<id>`), and the column becomes required.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE partner_order_sync SET idempotency_key = 'legacy-' || id WHERE idempotency_key IS NULL;
    ALTER TABLE partner_order_sync ALTER COLUMN idempotency_key SET NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE partner_order_sync ALTER COLUMN idempotency_key DROP NOT NULL`.execute(db);
}
