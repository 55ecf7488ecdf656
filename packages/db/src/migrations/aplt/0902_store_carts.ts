import { type Kysely, sql } from 'kysely';

/**
 * Storefront carts (issue #15). A cart id is unguessable (`cart_<uuid>`): a guest reaches a cart
 * only by knowing it. `customer_ref` is the commerce customer (the token's actor id) that owns
 * it; at most one open cart per customer, so a sign-in merges into that one instead of making a
 * second. A completed cart names the quotation it became (one quotation per cart, enforced by the
 * unique index); a merged guest cart names the cart its lines went to, so a repeated transfer
 * answers the same cart. Lines keep what the customer chose (SKU, quantity, the logo-modal
 * transaction with technique, position, colours and file links); prices are not stored: they come
 * from the catalog at the line's quantity whenever the cart is read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aplt_carts (
      id text PRIMARY KEY CHECK (id ~ '^cart_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
      customer_ref text CHECK (customer_ref <> ''),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'merged')),
      quotation_id bigint REFERENCES aplt_quotation_headers (id) ON DELETE SET NULL,
      merged_into text REFERENCES aplt_carts (id) ON DELETE SET NULL,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_carts_completed CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
      CONSTRAINT aplt_carts_merged CHECK (status = 'merged' OR merged_into IS NULL)
    );
    COMMENT ON TABLE aplt_carts IS 'Storefront carts; a completed cart became quotation_id (source web).';
    COMMENT ON COLUMN aplt_carts.customer_ref IS 'Commerce customer id (token actor) owning the cart; NULL for a guest cart.';
    CREATE UNIQUE INDEX aplt_carts_open_per_customer_idx ON aplt_carts (customer_ref)
      WHERE status = 'open' AND customer_ref IS NOT NULL;
    CREATE UNIQUE INDEX aplt_carts_quotation_idx ON aplt_carts (quotation_id) WHERE quotation_id IS NOT NULL;
    CREATE INDEX aplt_carts_merged_into_idx ON aplt_carts (merged_into) WHERE merged_into IS NOT NULL;

    CREATE TABLE aplt_cart_lines (
      id text PRIMARY KEY CHECK (id ~ '^cali_[0-9a-f]{32}$'),
      cart_id text NOT NULL REFERENCES aplt_carts (id) ON DELETE CASCADE,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE SET NULL,
      sku text NOT NULL CHECK (sku <> ''),
      quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
      logo_transaction_id uuid,
      technique_code text,
      print_position text,
      print_colours integer CHECK (print_colours BETWEEN 0 AND 20),
      logo_colors jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(logo_colors) = 'array'),
      proof_url text,
      screenshot_url text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cart_lines_configured CHECK ((logo_transaction_id IS NULL) = (technique_code IS NULL))
    );
    CREATE INDEX aplt_cart_lines_cart_idx ON aplt_cart_lines (cart_id, created_at, id);
    -- A configured logo is one line: adding the same transaction again is the same line.
    CREATE UNIQUE INDEX aplt_cart_lines_transaction_idx ON aplt_cart_lines (cart_id, logo_transaction_id)
      WHERE logo_transaction_id IS NOT NULL;

    CREATE TRIGGER aplt_carts_updated_at_trg BEFORE UPDATE ON aplt_carts
      FOR EACH ROW EXECUTE FUNCTION aplt_set_updated_at();
    CREATE TRIGGER aplt_cart_lines_updated_at_trg BEFORE UPDATE ON aplt_cart_lines
      FOR EACH ROW EXECUTE FUNCTION aplt_set_updated_at();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS aplt_cart_lines; DROP TABLE IF EXISTS aplt_carts;`.execute(db);
}
