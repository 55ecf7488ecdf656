import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Medusa-v2-compatible auth, users, customers and a small catalog that the
    -- commerce sync fills from the aplt catalog. Ids are prefixed ULIDs made by
    -- the application (authid_, pidid_, user_, cus_, prod_, variant_, pcat_, price_, img_).

    CREATE TABLE auth_identity (
      id text PRIMARY KEY,
      app_metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    COMMENT ON COLUMN auth_identity.app_metadata IS 'Links the identity to its actor in this tenant: {"user_id": "user_..."} or {"customer_id": "cus_..."}.';
    CREATE INDEX "IDX_auth_identity_deleted_at" ON auth_identity (deleted_at) WHERE deleted_at IS NOT NULL;

    CREATE TABLE provider_identity (
      id text PRIMARY KEY,
      entity_id text NOT NULL,
      provider text NOT NULL,
      auth_identity_id text NOT NULL REFERENCES auth_identity (id) ON DELETE CASCADE,
      user_metadata jsonb,
      provider_metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_provider_identity_provider_entity_id" UNIQUE (entity_id, provider)
    );
    COMMENT ON COLUMN provider_identity.entity_id IS 'The e-mail address for provider emailpass (matched exactly).';
    COMMENT ON COLUMN provider_identity.provider_metadata IS 'emailpass: {"password": base64 of the 96-byte scrypt-kdf hash (logN 15, r 8, p 1)}.';
    CREATE INDEX "IDX_provider_identity_auth_identity_id" ON provider_identity (auth_identity_id);
    CREATE INDEX "IDX_provider_identity_deleted_at" ON provider_identity (deleted_at) WHERE deleted_at IS NOT NULL;

    CREATE TABLE "user" (
      id text PRIMARY KEY,
      email text NOT NULL,
      first_name text,
      last_name text,
      avatar_url text,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_user_email_unique" UNIQUE (email)
    );
    CREATE INDEX "IDX_user_deleted_at" ON "user" (deleted_at) WHERE deleted_at IS NOT NULL;

    CREATE TABLE customer (
      id text PRIMARY KEY,
      email text,
      first_name text,
      last_name text,
      company_name text,
      phone text,
      has_account boolean NOT NULL DEFAULT false,
      metadata jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    COMMENT ON COLUMN customer.metadata IS 'Account extras: avatar_url, preferred_language (nl, en, de), notifications {orders, quotes, newsletter}, email_verified_at.';
    CREATE UNIQUE INDEX "IDX_customer_email_has_account_unique" ON customer (email)
      WHERE has_account AND deleted_at IS NULL;
    CREATE INDEX "IDX_customer_email" ON customer (email);
    CREATE INDEX "IDX_customer_deleted_at" ON customer (deleted_at) WHERE deleted_at IS NOT NULL;

    CREATE TABLE product (
      id text PRIMARY KEY,
      title text NOT NULL,
      handle text NOT NULL,
      subtitle text,
      description text,
      is_giftcard boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'proposed', 'published', 'rejected')),
      thumbnail text,
      discountable boolean NOT NULL DEFAULT true,
      external_id text,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_product_handle_unique" UNIQUE (handle),
      CONSTRAINT "IDX_product_external_id_unique" UNIQUE (external_id)
    );
    COMMENT ON COLUMN product.external_id IS 'The aplt base SKU this product was synced from (upsert key of the commerce sync).';
    CREATE INDEX "IDX_product_status" ON product (status) WHERE deleted_at IS NULL;

    CREATE TABLE product_variant (
      id text PRIMARY KEY,
      product_id text NOT NULL REFERENCES product (id) ON DELETE CASCADE,
      title text NOT NULL,
      sku text,
      barcode text,
      ean text,
      upc text,
      allow_backorder boolean NOT NULL DEFAULT false,
      manage_inventory boolean NOT NULL DEFAULT false,
      variant_rank integer NOT NULL DEFAULT 0,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_product_variant_sku_unique" UNIQUE (sku)
    );
    COMMENT ON COLUMN product_variant.sku IS 'The aplt SKU (variant SKU NNN-NN.NNN, or the base SKU for a product without variants).';
    CREATE INDEX "IDX_product_variant_product_id" ON product_variant (product_id);

    CREATE TABLE image (
      id text PRIMARY KEY,
      product_id text NOT NULL REFERENCES product (id) ON DELETE CASCADE,
      url text NOT NULL,
      rank integer NOT NULL DEFAULT 0,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_image_product_url_unique" UNIQUE (product_id, url)
    );

    CREATE TABLE product_category (
      id text PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      handle text NOT NULL,
      mpath text,
      is_active boolean NOT NULL DEFAULT true,
      is_internal boolean NOT NULL DEFAULT false,
      rank integer NOT NULL DEFAULT 0,
      parent_category_id text REFERENCES product_category (id) ON DELETE CASCADE,
      external_id text,
      metadata jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT "IDX_category_handle_unique" UNIQUE (handle),
      CONSTRAINT "IDX_product_category_external_id_unique" UNIQUE (external_id),
      CONSTRAINT product_category_not_own_parent CHECK (parent_category_id IS NULL OR parent_category_id <> id)
    );
    COMMENT ON COLUMN product_category.external_id IS 'The aplt category code this category was synced from.';
    CREATE INDEX "IDX_product_category_parent_category_id" ON product_category (parent_category_id);

    CREATE TABLE product_category_product (
      product_id text NOT NULL REFERENCES product (id) ON DELETE CASCADE,
      product_category_id text NOT NULL REFERENCES product_category (id) ON DELETE CASCADE,
      PRIMARY KEY (product_id, product_category_id)
    );
    CREATE INDEX "IDX_product_category_product_category_id" ON product_category_product (product_category_id);

    CREATE TABLE price (
      id text PRIMARY KEY,
      variant_id text NOT NULL REFERENCES product_variant (id) ON DELETE CASCADE,
      title text,
      currency_code text NOT NULL CHECK (currency_code ~ '^[a-z]{3}$'),
      amount numeric NOT NULL CHECK (amount >= 0),
      raw_amount jsonb,
      min_quantity integer CHECK (min_quantity >= 1),
      max_quantity integer CHECK (max_quantity >= 1),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CONSTRAINT price_quantity_range CHECK (max_quantity IS NULL OR min_quantity IS NULL OR max_quantity >= min_quantity),
      CONSTRAINT "IDX_price_variant_currency_min_quantity_unique" UNIQUE NULLS NOT DISTINCT (variant_id, currency_code, min_quantity)
    );
    COMMENT ON TABLE price IS 'Tiered price per variant (simplified from Medusa price_set/price): amount in major units, currency_code lower-case ISO 4217 as in Medusa (eur).';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS
      price,
      product_category_product,
      product_category,
      image,
      product_variant,
      product,
      customer,
      "user",
      provider_identity,
      auth_identity
      CASCADE;
  `.execute(db);
}
