import { type Kysely, sql } from 'kysely';

/**
 * Subscription billing (spec 1: "subscription billing job | cron 0 8 1 * *", issue #16).
 *
 * A subscription bills its customer the same lines every period (monthly, quarterly or yearly),
 * periods counted from the first day of its start month. `aplt_subscription_invoices` holds the
 * unique key (subscription, period start) and is written in the same transaction as the invoice,
 * so a period is invoiced exactly once however often or concurrently the billing runs and
 * wherever a run stopped. `aplt_billing_runs` records each run for staff: what it created, what
 * it skipped and what failed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aplt_subscriptions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_id bigint NOT NULL REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      description text NOT NULL CHECK (description <> '' AND length(description) <= 200),
      billing_interval text NOT NULL CHECK (billing_interval IN ('monthly', 'quarterly', 'yearly')),
      start_date date NOT NULL,
      end_date date,
      paused_at timestamptz,
      payment_term_days integer CHECK (payment_term_days BETWEEN 0 AND 60),
      reference text CHECK (length(reference) <= 200),
      notes text CHECK (length(notes) <= 5000),
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_subscriptions_end_after_start CHECK (end_date IS NULL OR end_date >= start_date)
    );
    COMMENT ON TABLE aplt_subscriptions IS 'Recurring invoices: the lines are invoiced once per period (billing_interval from the first day of the start month) while the subscription is started, not ended and not paused.';
    COMMENT ON COLUMN aplt_subscriptions.paused_at IS 'Set while paused: billing skips the subscription; resume clears it.';
    CREATE INDEX aplt_subscriptions_customer_idx ON aplt_subscriptions (customer_id);

    CREATE TABLE aplt_subscription_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subscription_id bigint NOT NULL REFERENCES aplt_subscriptions (id) ON DELETE CASCADE,
      line_no integer NOT NULL CHECK (line_no >= 1),
      line_type text NOT NULL DEFAULT 'other' CHECK (line_type IN ('product', 'other')),
      product_id bigint REFERENCES aplt_products (id) ON DELETE SET NULL,
      sku text CHECK (length(sku) <= 100),
      description text NOT NULL CHECK (description <> '' AND length(description) <= 500),
      quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
      unit_price numeric(14,4) NOT NULL CHECK (unit_price >= 0),
      discount_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (discount_percent BETWEEN 0 AND 100),
      vat_rate numeric(5,2) NOT NULL DEFAULT 21 CHECK (vat_rate BETWEEN 0 AND 100),
      UNIQUE (subscription_id, line_no)
    );

    CREATE TABLE aplt_billing_runs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      billing_date date NOT NULL,
      trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
      status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
      created_count integer NOT NULL DEFAULT 0,
      skipped_count integer NOT NULL DEFAULT 0,
      failed_count integer NOT NULL DEFAULT 0,
      created jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(created) = 'array'),
      failures jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(failures) = 'array'),
      actor text,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      CONSTRAINT aplt_billing_runs_finished CHECK ((status = 'running') = (finished_at IS NULL))
    );
    COMMENT ON TABLE aplt_billing_runs IS 'One row per subscription billing run (scheduled or started by staff), with the invoices it created and the subscriptions that failed.';
    CREATE INDEX aplt_billing_runs_started_idx ON aplt_billing_runs (started_at DESC, id DESC);

    CREATE TABLE aplt_subscription_invoices (
      subscription_id bigint NOT NULL REFERENCES aplt_subscriptions (id) ON DELETE RESTRICT,
      period_start date NOT NULL,
      period_end date NOT NULL,
      invoice_id bigint NOT NULL UNIQUE REFERENCES aplt_invoice_headers (id) ON DELETE RESTRICT,
      billing_run_id bigint REFERENCES aplt_billing_runs (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (subscription_id, period_start),
      CONSTRAINT aplt_subscription_invoices_period CHECK (period_end >= period_start)
    );
    COMMENT ON TABLE aplt_subscription_invoices IS 'Exactly one invoice per subscription and period: written in the invoice''s own transaction.';
    CREATE INDEX aplt_subscription_invoices_run_idx ON aplt_subscription_invoices (billing_run_id);

    CREATE TRIGGER aplt_subscriptions_updated_at_trg BEFORE UPDATE ON aplt_subscriptions
      FOR EACH ROW EXECUTE FUNCTION aplt_set_updated_at();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS aplt_subscription_invoices;
    DROP TABLE IF EXISTS aplt_billing_runs;
    DROP TABLE IF EXISTS aplt_subscription_lines;
    DROP TABLE IF EXISTS aplt_subscriptions;
  `.execute(db);
}
