import { type Kysely, sql } from 'kysely';

/**
 * Partner fulfilment sync (issue #16). `partner_order_sync` (0001, planned) becomes the outbox and
 * the mapping of an order sent to the partner's API:
 *
 * - one row per order (unique `order_id`), written in the transaction that confirms the order, so
 *   an order is queued exactly when its confirmation commits;
 * - `idempotency_key` (unique) is sent as the `Idempotency-Key` header of the create call: a repeat
 *   after a lost answer or a forced resend is the same order to the partner;
 * - `status` gains the states of our side: `queued` (waiting for the worker), `sending` (claimed by
 *   one worker, `claim_token`/`claimed_at`; a claim older than the lease may be taken over) and
 *   `failed` (a 4xx other than 401, retries used up, or bad settings: `error_message`,
 *   `last_http_status`); `pushed` .. `cancelled` keep their meaning (the partner's state);
 * - `tracking_url`, `sent_at`, `shipped_at`, `last_polled_at` for the status poll; `attempts` counts
 *   sends.
 *
 * aplt_settings gets value_type `secret`: the partner password (sealed with a key derived from the
 * service secret) is stored there and never shown by a read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_settings DROP CONSTRAINT aplt_settings_value_type_check;
    ALTER TABLE aplt_settings ADD CONSTRAINT aplt_settings_value_type_check
      CHECK (value_type IN ('string', 'number', 'boolean', 'json', 'secret'));

    ALTER TABLE partner_order_sync DROP CONSTRAINT partner_order_sync_status_check;
    ALTER TABLE partner_order_sync ADD CONSTRAINT partner_order_sync_status_check
      CHECK (status IN ('queued', 'sending', 'failed', 'pushed', 'confirmed', 'shipped', 'delivered', 'cancelled'));
    ALTER TABLE partner_order_sync DROP CONSTRAINT partner_order_sync_synced_via_check;
    ALTER TABLE partner_order_sync ADD CONSTRAINT partner_order_sync_synced_via_check
      CHECK (synced_via IN ('agent', 'n8n', 'worker'));
    ALTER TABLE partner_order_sync
      ADD COLUMN idempotency_key text CHECK (idempotency_key <> '' AND length(idempotency_key) <= 255),
      ADD COLUMN claim_token uuid,
      ADD COLUMN claimed_at timestamptz,
      ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      ADD COLUMN last_http_status integer CHECK (last_http_status BETWEEN 100 AND 599),
      ADD COLUMN tracking_url text CHECK (tracking_url ~* '^https?://'),
      ADD COLUMN sent_at timestamptz,
      ADD COLUMN shipped_at timestamptz,
      ADD COLUMN last_polled_at timestamptz,
      ADD CONSTRAINT partner_order_sync_claim CHECK ((status = 'sending') = (claim_token IS NOT NULL));
    CREATE UNIQUE INDEX partner_order_sync_idempotency_idx ON partner_order_sync (idempotency_key);
    CREATE UNIQUE INDEX partner_order_sync_one_per_order_idx ON partner_order_sync (order_id)
      WHERE order_id IS NOT NULL;
    CREATE INDEX partner_order_sync_status_idx ON partner_order_sync (status, updated_at);
    DROP INDEX partner_order_sync_order_idx;
    COMMENT ON TABLE partner_order_sync IS 'Partner fulfilment outbox and mapping (spec 1, issue #16): one row per order, queued in the transaction that confirms the order; the worker claims it (sending), sends it once under idempotency_key and records the partner process id, document id and status.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE INDEX partner_order_sync_order_idx ON partner_order_sync (order_id);
    DROP INDEX partner_order_sync_status_idx;
    DROP INDEX partner_order_sync_one_per_order_idx;
    DROP INDEX partner_order_sync_idempotency_idx;
    ALTER TABLE partner_order_sync
      DROP CONSTRAINT partner_order_sync_claim,
      DROP COLUMN idempotency_key,
      DROP COLUMN claim_token,
      DROP COLUMN claimed_at,
      DROP COLUMN attempts,
      DROP COLUMN last_http_status,
      DROP COLUMN tracking_url,
      DROP COLUMN sent_at,
      DROP COLUMN shipped_at,
      DROP COLUMN last_polled_at;
    DELETE FROM partner_order_sync WHERE status IN ('queued', 'sending', 'failed') OR synced_via = 'worker';
    ALTER TABLE partner_order_sync DROP CONSTRAINT partner_order_sync_synced_via_check;
    ALTER TABLE partner_order_sync ADD CONSTRAINT partner_order_sync_synced_via_check
      CHECK (synced_via IN ('agent', 'n8n'));
    ALTER TABLE partner_order_sync DROP CONSTRAINT partner_order_sync_status_check;
    ALTER TABLE partner_order_sync ADD CONSTRAINT partner_order_sync_status_check
      CHECK (status IN ('pushed', 'confirmed', 'shipped', 'delivered', 'cancelled'));
    DELETE FROM aplt_settings WHERE value_type = 'secret';
    ALTER TABLE aplt_settings DROP CONSTRAINT aplt_settings_value_type_check;
    ALTER TABLE aplt_settings ADD CONSTRAINT aplt_settings_value_type_check
      CHECK (value_type IN ('string', 'number', 'boolean', 'json'));
  `.execute(db);
}
