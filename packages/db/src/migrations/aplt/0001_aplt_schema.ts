import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- ===========================================================================
    -- Extensions and helper functions
    -- ===========================================================================
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
    CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;

    -- unaccent() is only STABLE; generated search columns need an IMMUTABLE
    -- wrapper with the dictionary named explicitly (the documented idiom).
    CREATE FUNCTION aplt_f_unaccent(text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;

    -- Keeps updated_at current on UPDATE unless the statement sets it itself.
    CREATE FUNCTION aplt_set_updated_at() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
        NEW.updated_at := now();
      END IF;
      RETURN NEW;
    END $$;

    -- ===========================================================================
    -- Configuration
    -- ===========================================================================
    CREATE TABLE aplt_tenants (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9_-]*$'),
      name text NOT NULL,
      kind text NOT NULL DEFAULT 'tenant' CHECK (kind IN ('master', 'pim', 'tenant')),
      backend_url text,
      storefront_url text,
      db_host text,
      db_port integer CHECK (db_port BETWEEN 1 AND 65535),
      db_name text,
      is_active boolean NOT NULL DEFAULT true,
      last_update_at timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_tenants IS 'Tenants known to this aplt database (in the master: targets of the manual tenant update). The control-plane registry stays the source of truth for addresses.';

    CREATE TABLE aplt_brands (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name text NOT NULL,
      domain text,
      logo_url text,
      primary_color char(7) CHECK (primary_color ~ '^#[0-9A-Fa-f]{6}$'),
      default_language char(2) NOT NULL DEFAULT 'nl' CHECK (default_language IN ('nl', 'en', 'de')),
      is_default boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX aplt_brands_one_default_idx ON aplt_brands (is_default) WHERE is_default;

    CREATE TABLE aplt_settings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      key text NOT NULL UNIQUE,
      value text,
      value_type text NOT NULL DEFAULT 'string' CHECK (value_type IN ('string', 'number', 'boolean', 'json')),
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_settings IS 'Tenant-wide key/value settings (e.g. franco_limit 750.00, shipping_cost_default 12.99); a row overrides the APLT_* env default. Seeding is left to the application.';

    CREATE TABLE aplt_number_sequences (
      prefix char(1) NOT NULL CHECK (prefix IN ('Q', 'O', 'F', 'C', 'P', 'B')),
      year integer NOT NULL CHECK (year BETWEEN 2000 AND 9999),
      last_value integer NOT NULL DEFAULT 0 CHECK (last_value >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (prefix, year)
    );
    COMMENT ON TABLE aplt_number_sequences IS 'Gapless document counters per (prefix, year): allocate with INSERT (prefix, year, last_value) VALUES (p, y, 1) ON CONFLICT (prefix, year) DO UPDATE SET last_value = aplt_number_sequences.last_value + 1 RETURNING last_value inside the transaction that inserts the document. Numbers are <prefix>-<yyyy>-<seq padded to at least 4 digits>; beyond 9999 the sequence simply gets more digits.';

    CREATE TABLE aplt_payment_terms (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name_nl text,
      name_en text,
      name_de text,
      days integer NOT NULL CHECK (days BETWEEN 0 AND 60),
      is_default boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX aplt_payment_terms_one_default_idx ON aplt_payment_terms (is_default) WHERE is_default;

    -- ===========================================================================
    -- Accounting master data
    -- ===========================================================================
    CREATE TABLE aplt_ledger_accounts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code varchar(20) NOT NULL UNIQUE,
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('asset', 'liability', 'revenue', 'expense', 'equity')),
      system_key text UNIQUE,
      parent_id bigint REFERENCES aplt_ledger_accounts (id) ON DELETE RESTRICT,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_ledger_accounts_parent_idx ON aplt_ledger_accounts (parent_id);
    COMMENT ON COLUMN aplt_ledger_accounts.system_key IS 'Stable handle used by the posting code: receivables, revenue, vat_payable, bank, customer_credit, rounding.';

    CREATE TABLE aplt_vat_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name text NOT NULL,
      rate numeric(5,2) NOT NULL CHECK (rate >= 0 AND rate <= 100),
      category varchar(2) NOT NULL DEFAULT 'S' CHECK (category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
      invoice_note text,
      ledger_account_id bigint REFERENCES aplt_ledger_accounts (id) ON DELETE RESTRICT,
      is_default boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_vat_codes_zero_rate_categories CHECK (category = 'S' OR rate = 0)
    );
    COMMENT ON COLUMN aplt_vat_codes.category IS 'UNCL5305 / EN 16931 category: S standard, Z zero, E exempt, AE reverse charge (BTW verlegd), K intra-EU supply, G export, O outside scope.';
    CREATE INDEX aplt_vat_codes_ledger_account_idx ON aplt_vat_codes (ledger_account_id);
    CREATE UNIQUE INDEX aplt_vat_codes_one_default_idx ON aplt_vat_codes (is_default) WHERE is_default;

    -- ===========================================================================
    -- Suppliers, catalog and pricing
    -- ===========================================================================
    CREATE TABLE aplt_suppliers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code char(2) NOT NULL UNIQUE CHECK (code ~ '^[0-9]{2}$'),
      name text NOT NULL,
      feed_format text CHECK (feed_format IN ('json', 'tsv', 'csv', 'xml', 'strings_json', 'other')),
      website text,
      contact_email text,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN aplt_suppliers.code IS 'Two-digit supplier code (01, 02, 03, 04, 05, 06, 07, 09); connector names are <code>_<products|stock|prices|printdata>.';

    CREATE TABLE aplt_discount_groups (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name text NOT NULL,
      description text,
      discount_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE aplt_colors (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name_nl text,
      name_en text,
      name_de text,
      hex char(7) CHECK (hex ~ '^#[0-9A-Fa-f]{6}$'),
      pms_color text,
      color_group text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE aplt_categories (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      parent_id bigint REFERENCES aplt_categories (id) ON DELETE SET NULL,
      code text NOT NULL UNIQUE,
      slug text NOT NULL UNIQUE,
      name_nl text NOT NULL,
      name_en text,
      name_de text,
      description_nl text,
      description_en text,
      description_de text,
      image_url text,
      sort_order integer NOT NULL DEFAULT 0,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_categories_not_own_parent CHECK (parent_id IS NULL OR parent_id <> id)
    );
    CREATE INDEX aplt_categories_parent_idx ON aplt_categories (parent_id);

    CREATE TABLE aplt_products (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      sku text NOT NULL UNIQUE CHECK (sku <> ''),
      supplier_code char(2) NOT NULL REFERENCES aplt_suppliers (code) ON UPDATE CASCADE ON DELETE RESTRICT,
      supplier_sku text,
      name_nl text NOT NULL,
      name_en text,
      name_de text,
      description_nl text,
      description_en text,
      description_de text,
      brand text,
      material text,
      dimensions text,
      weight_grams numeric(10,2) CHECK (weight_grams >= 0),
      country_of_origin char(2) CHECK (country_of_origin ~ '^[A-Z]{2}$'),
      supplier_category_code text,
      printable boolean NOT NULL DEFAULT true,
      number_of_print_positions integer CHECK (number_of_print_positions >= 0),
      retail_price_100 numeric(14,4) CHECK (retail_price_100 >= 0),
      purchase_price numeric(14,4) CHECK (purchase_price >= 0),
      min_order_quantity integer NOT NULL DEFAULT 1 CHECK (min_order_quantity >= 1),
      discount_group_id bigint REFERENCES aplt_discount_groups (id) ON DELETE SET NULL,
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'discontinued')),
      image_url text,
      images jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(images) = 'array'),
      has_svg_template boolean NOT NULL DEFAULT false,
      svg_template_path text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      last_imported_at timestamptz,
      is_sellable boolean GENERATED ALWAYS AS (retail_price_100 IS NOT NULL AND status = 'active') STORED,
      search_text text GENERATED ALWAYS AS (
        lower(aplt_f_unaccent(
          sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '')
        ))
      ) STORED,
      search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          sku || ' ' || coalesce(name_nl, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '')
        )), 'A')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(brand, '') || ' ' || coalesce(material, '')
        )), 'B')
        || setweight(to_tsvector('simple'::regconfig, aplt_f_unaccent(
          coalesce(description_nl, '') || ' ' || coalesce(description_en, '') || ' ' || coalesce(description_de, '')
        )), 'C')
      ) STORED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_products_supplier_sku_key UNIQUE (supplier_code, supplier_sku)
    );
    COMMENT ON COLUMN aplt_products.sku IS 'Base SKU, shape NNN-NN (unique across products and variants through aplt_skus).';
    COMMENT ON COLUMN aplt_products.retail_price_100 IS 'Retail unit price at quantity 100; NULL means the product is not sellable and never reaches the store catalog or the commerce sync.';
    CREATE INDEX aplt_products_supplier_code_idx ON aplt_products (supplier_code);
    CREATE INDEX aplt_products_discount_group_idx ON aplt_products (discount_group_id);
    CREATE INDEX aplt_products_vat_code_idx ON aplt_products (vat_code_id);
    CREATE INDEX aplt_products_sellable_idx ON aplt_products (id) WHERE is_sellable;
    CREATE INDEX aplt_products_search_vector_idx ON aplt_products USING gin (search_vector);
    CREATE INDEX aplt_products_search_trgm_idx ON aplt_products USING gin (search_text gin_trgm_ops);

    CREATE TABLE aplt_product_variants (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      sku text NOT NULL UNIQUE CHECK (sku <> ''),
      base_sku text GENERATED ALWAYS AS (split_part(sku, '.', 1)) STORED,
      supplier_variant_id text,
      color_id bigint REFERENCES aplt_colors (id) ON DELETE SET NULL,
      color_code text,
      color_name text,
      color_group text,
      pms_color text,
      hex char(7) CHECK (hex ~ '^#[0-9A-Fa-f]{6}$'),
      size text,
      gtin varchar(14) CHECK (gtin ~ '^[0-9]{8,14}$'),
      plc_status text,
      retail_price_100 numeric(14,4) CHECK (retail_price_100 >= 0),
      image_url text,
      images jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(images) = 'array'),
      is_active boolean NOT NULL DEFAULT true,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_product_variants_id_product_key UNIQUE (id, product_id)
    );
    COMMENT ON COLUMN aplt_product_variants.sku IS 'Variant SKU, shape NNN-NN.NNN; base_sku is the part before the dot.';
    COMMENT ON COLUMN aplt_product_variants.retail_price_100 IS 'Optional variant override of the product retail price at quantity 100.';
    CREATE INDEX aplt_product_variants_product_idx ON aplt_product_variants (product_id);
    CREATE INDEX aplt_product_variants_base_sku_idx ON aplt_product_variants (base_sku);
    CREATE INDEX aplt_product_variants_color_idx ON aplt_product_variants (color_id);
    CREATE INDEX aplt_product_variants_gtin_idx ON aplt_product_variants (gtin);

    -- Registry of every sellable SKU (product base SKUs and variant SKUs), kept
    -- in step by triggers, so aplt_stock can carry one real foreign key.
    CREATE TABLE aplt_skus (
      sku text PRIMARY KEY,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      variant_id bigint UNIQUE REFERENCES aplt_product_variants (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_skus IS 'Every SKU that exists in aplt_products or aplt_product_variants, maintained by triggers on those tables (do not write directly). A SKU is unique across products and variants. aplt_stock.sku references it, so stock for an unknown SKU is a foreign-key violation.';
    CREATE UNIQUE INDEX aplt_skus_product_base_idx ON aplt_skus (product_id) WHERE variant_id IS NULL;

    CREATE FUNCTION aplt_products_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id) VALUES (NEW.sku, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku THEN
        UPDATE aplt_skus SET sku = NEW.sku WHERE product_id = NEW.id AND variant_id IS NULL;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_products_register_sku_trg
      AFTER INSERT OR UPDATE OF sku ON aplt_products
      FOR EACH ROW EXECUTE FUNCTION aplt_products_register_sku();

    CREATE FUNCTION aplt_product_variants_register_sku() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO aplt_skus (sku, product_id, variant_id) VALUES (NEW.sku, NEW.product_id, NEW.id);
      ELSIF NEW.sku IS DISTINCT FROM OLD.sku OR NEW.product_id IS DISTINCT FROM OLD.product_id THEN
        UPDATE aplt_skus SET sku = NEW.sku, product_id = NEW.product_id WHERE variant_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_variants_register_sku_trg
      AFTER INSERT OR UPDATE OF sku, product_id ON aplt_product_variants
      FOR EACH ROW EXECUTE FUNCTION aplt_product_variants_register_sku();

    CREATE TABLE aplt_stock (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      sku text NOT NULL UNIQUE REFERENCES aplt_skus (sku) ON UPDATE CASCADE ON DELETE CASCADE,
      quantity integer NOT NULL DEFAULT 0 CHECK (quantity >= 0),
      first_arrival_date date,
      first_arrival_qty integer CHECK (first_arrival_qty >= 0),
      next_arrival_date date,
      next_arrival_qty integer CHECK (next_arrival_qty >= 0),
      source_modified_at timestamptz,
      last_synced_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_stock IS 'Stock per product or variant SKU; the FK to aplt_skus enforces that the SKU exists (spec 1 integrity rule).';

    CREATE TABLE aplt_product_prices (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      variant_id bigint,
      price_list text NOT NULL DEFAULT 'retail' CHECK (price_list IN ('retail', 'purchase')),
      min_quantity integer NOT NULL CHECK (min_quantity >= 1),
      price numeric(14,4) NOT NULL CHECK (price >= 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      valid_from date,
      valid_until date,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_product_prices_variant_fk FOREIGN KEY (variant_id, product_id)
        REFERENCES aplt_product_variants (id, product_id) ON DELETE CASCADE,
      CONSTRAINT aplt_product_prices_scale_key UNIQUE NULLS NOT DISTINCT (product_id, variant_id, price_list, min_quantity),
      CONSTRAINT aplt_product_prices_validity CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until >= valid_from)
    );
    COMMENT ON TABLE aplt_product_prices IS 'Tiered (scale) prices: the applicable row is the highest min_quantity not above the ordered quantity; variant_id NULL = product-wide.';
    CREATE INDEX aplt_product_prices_variant_idx ON aplt_product_prices (variant_id);

    CREATE TABLE aplt_category_mappings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      category_id bigint NOT NULL REFERENCES aplt_categories (id) ON DELETE CASCADE,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      is_primary boolean NOT NULL DEFAULT false,
      source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'connector', 'ai')),
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_category_mappings_key UNIQUE (category_id, product_id)
    );
    CREATE INDEX aplt_category_mappings_product_idx ON aplt_category_mappings (product_id);
    CREATE UNIQUE INDEX aplt_category_mappings_one_primary_idx ON aplt_category_mappings (product_id) WHERE is_primary;

    CREATE TABLE aplt_techniques (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      supplier_code char(2) REFERENCES aplt_suppliers (code) ON UPDATE CASCADE ON DELETE SET NULL,
      supplier_technique_id text,
      name_nl text NOT NULL,
      name_en text,
      name_de text,
      description_nl text,
      description_en text,
      description_de text,
      pricing_type text NOT NULL DEFAULT 'per_colour'
        CHECK (pricing_type IN ('per_colour', 'per_position', 'area_range', 'colour_area_range', 'full_colour', 'fixed')),
      max_colours integer CHECK (max_colours >= 0),
      full_colour boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_techniques_supplier_idx ON aplt_techniques (supplier_code);

    CREATE TABLE aplt_technique_pricing (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      technique_id bigint NOT NULL REFERENCES aplt_techniques (id) ON DELETE CASCADE,
      area_from numeric(10,2) CHECK (area_from >= 0),
      area_to numeric(10,2) CHECK (area_to >= 0),
      colours integer CHECK (colours >= 1),
      min_quantity integer NOT NULL DEFAULT 1 CHECK (min_quantity >= 1),
      price_per_unit numeric(14,4) NOT NULL CHECK (price_per_unit >= 0),
      next_colour_price numeric(14,4) CHECK (next_colour_price >= 0),
      setup_cost numeric(14,2) NOT NULL DEFAULT 0 CHECK (setup_cost >= 0),
      setup_repeat_cost numeric(14,2) CHECK (setup_repeat_cost >= 0),
      small_order_charge numeric(14,2) CHECK (small_order_charge >= 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      valid_from date,
      valid_until date,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_technique_pricing_area CHECK (area_to IS NULL OR area_from IS NULL OR area_to >= area_from),
      CONSTRAINT aplt_technique_pricing_scale_key UNIQUE NULLS NOT DISTINCT (technique_id, area_from, area_to, colours, min_quantity)
    );
    COMMENT ON TABLE aplt_technique_pricing IS 'Print price per unit for a technique by quantity scale (min_quantity), number of colours (NULL = any / full colour) and optional print-area range (cm2); plus setup cost.';

    CREATE TABLE aplt_opstartkosten (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      technique_id bigint NOT NULL REFERENCES aplt_techniques (id) ON DELETE CASCADE,
      product_id bigint REFERENCES aplt_products (id) ON DELETE CASCADE,
      description text,
      setup_cost numeric(14,2) NOT NULL CHECK (setup_cost >= 0),
      repeat_setup_cost numeric(14,2) CHECK (repeat_setup_cost >= 0),
      per_colour boolean NOT NULL DEFAULT true,
      per_position boolean NOT NULL DEFAULT true,
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_opstartkosten_key UNIQUE NULLS NOT DISTINCT (technique_id, product_id)
    );
    COMMENT ON TABLE aplt_opstartkosten IS 'Setup costs (opstartkosten, supplier cliche) per technique, optionally overridden per product (product_id NULL = technique default).';
    CREATE INDEX aplt_opstartkosten_product_idx ON aplt_opstartkosten (product_id);

    CREATE TABLE aplt_print_positions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      position_code text NOT NULL,
      position_name text,
      max_width_mm numeric(8,2) CHECK (max_width_mm > 0),
      max_height_mm numeric(8,2) CHECK (max_height_mm > 0),
      print_area text CHECK (print_area ~ '^[0-9]+([.][0-9]+)?x[0-9]+([.][0-9]+)?$'),
      rotation numeric(6,2),
      coordinates jsonb,
      image_url text,
      has_svg_template boolean NOT NULL DEFAULT false,
      svg_template_path text,
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_print_positions_key UNIQUE (product_id, position_code),
      CONSTRAINT aplt_print_positions_id_product_key UNIQUE (id, product_id)
    );
    COMMENT ON COLUMN aplt_print_positions.print_area IS 'Print area in mm as <width>x<height>, e.g. 50x30.';
    COMMENT ON COLUMN aplt_print_positions.coordinates IS 'Print coordinates (points / bounding box) used by the logo modal; NULL means the position has no coordinates.';

    CREATE TABLE aplt_product_techniques (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_id bigint NOT NULL REFERENCES aplt_products (id) ON DELETE CASCADE,
      technique_id bigint NOT NULL REFERENCES aplt_techniques (id) ON DELETE CASCADE,
      print_position_id bigint NOT NULL,
      max_colours integer CHECK (max_colours >= 0),
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_product_techniques_position_fk FOREIGN KEY (print_position_id, product_id)
        REFERENCES aplt_print_positions (id, product_id) ON DELETE CASCADE,
      CONSTRAINT aplt_product_techniques_key UNIQUE (product_id, technique_id, print_position_id)
    );
    CREATE INDEX aplt_product_techniques_technique_idx ON aplt_product_techniques (technique_id);
    CREATE INDEX aplt_product_techniques_position_idx ON aplt_product_techniques (print_position_id);

    -- ===========================================================================
    -- Customers and customer accounts
    -- ===========================================================================
    CREATE TABLE aplt_customers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_number text UNIQUE,
      email text,
      company text,
      first_name text,
      last_name text,
      phone text,
      vat_number text,
      vat_validated_at timestamptz,
      coc_number text,
      country char(2) NOT NULL DEFAULT 'NL' CHECK (country ~ '^[A-Z]{2}$'),
      address_line1 text,
      address_line2 text,
      postal_code text,
      city text,
      region text,
      shipping_address jsonb,
      language char(2) NOT NULL DEFAULT 'nl' CHECK (language IN ('nl', 'en', 'de')),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      payment_term_days integer NOT NULL DEFAULT 30 CHECK (payment_term_days BETWEEN 0 AND 60),
      payment_term_id bigint REFERENCES aplt_payment_terms (id) ON DELETE SET NULL,
      discount_group_id bigint REFERENCES aplt_discount_groups (id) ON DELETE SET NULL,
      brand_id bigint REFERENCES aplt_brands (id) ON DELETE SET NULL,
      commerce_customer_id text UNIQUE,
      avatar_url text,
      notes text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      is_active boolean NOT NULL DEFAULT true,
      deleted_at timestamptz,
      anonymized_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_customers_email_shape CHECK (email IS NULL OR email ~ '^[^@[:space:]]+@[^@[:space:]]+$')
    );
    COMMENT ON TABLE aplt_customers IS 'B2B customers; matched to the commerce customer by e-mail (case-insensitive unique). metadata carries preferred_language and notifications {orders, quotes, newsletter}. Soft delete via deleted_at, anonymised after 30 days.';
    CREATE UNIQUE INDEX aplt_customers_email_key ON aplt_customers (lower(email));
    CREATE INDEX aplt_customers_company_trgm_idx ON aplt_customers USING gin (company gin_trgm_ops);
    CREATE INDEX aplt_customers_payment_term_idx ON aplt_customers (payment_term_id);
    CREATE INDEX aplt_customers_discount_group_idx ON aplt_customers (discount_group_id);
    CREATE INDEX aplt_customers_brand_idx ON aplt_customers (brand_id);

    CREATE TABLE aplt_customer_2fa (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_email varchar(255) NOT NULL UNIQUE,
      is_enabled boolean NOT NULL DEFAULT false,
      otp_secret varchar(64),
      recovery_codes jsonb NOT NULL DEFAULT '[]'::jsonb
        CHECK (jsonb_typeof(recovery_codes) = 'array' AND jsonb_array_length(recovery_codes) <= 8),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN aplt_customer_2fa.recovery_codes IS 'JSON array of (at most) 8 hashed recovery codes; a used code is removed.';

    CREATE TABLE aplt_otp_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_email varchar(255) NOT NULL,
      code char(6) NOT NULL CHECK (code ~ '^[0-9]{6}$'),
      expires_at timestamptz NOT NULL DEFAULT (now() + interval '10 minutes'),
      used boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_otp_codes_email_idx ON aplt_otp_codes (customer_email, created_at DESC);

    CREATE TABLE aplt_otp_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_email varchar(255) NOT NULL,
      succeeded boolean NOT NULL,
      ip_address varchar(45),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_otp_attempts IS 'OTP verification attempts, for the limit of 3 attempts per 15 minutes per e-mail.';
    CREATE INDEX aplt_otp_attempts_email_idx ON aplt_otp_attempts (customer_email, created_at DESC);

    CREATE TABLE aplt_email_verifications (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_email varchar(255) NOT NULL,
      commerce_customer_id text,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      verified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_email_verifications IS 'E-mail verification of new storefront customer accounts; only a hash of the token is stored.';
    CREATE INDEX aplt_email_verifications_email_idx ON aplt_email_verifications (customer_email);

    CREATE TABLE aplt_access_requests (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ip_address varchar(45) NOT NULL,
      name varchar(255),
      email varchar(255),
      company varchar(255),
      message text,
      status varchar(20) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      approved_by varchar(255),
      approved_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_access_requests IS 'Gatekeeper access requests by IP (spec 1). name is the requester name from POST /store/access-request; approved_by/approved_at record the deciding admin for approvals and rejections.';
    CREATE INDEX aplt_access_requests_ip_idx ON aplt_access_requests (ip_address, created_at DESC);
    CREATE INDEX aplt_access_requests_status_idx ON aplt_access_requests (status, created_at DESC);

    -- ===========================================================================
    -- Documents: quotations, orders, invoices (incl. proformas and credit notes)
    -- ===========================================================================
    CREATE TABLE aplt_quotation_headers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      quotation_number text NOT NULL UNIQUE CHECK (quotation_number ~ '^Q-[0-9]{4}-[0-9]{4,}$'),
      customer_id bigint REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      brand_id bigint REFERENCES aplt_brands (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'expired', 'rejected')),
      source_code varchar(50) NOT NULL DEFAULT 'admin' CHECK (source_code IN ('agent', 'web', 'manual', 'admin')),
      quotation_date date NOT NULL DEFAULT CURRENT_DATE,
      valid_until date NOT NULL DEFAULT (CURRENT_DATE + 30),
      reference text,
      title text,
      customer_email text,
      customer_name text,
      customer_company text,
      billing_address jsonb,
      shipping_address jsonb,
      language char(2) NOT NULL DEFAULT 'nl' CHECK (language IN ('nl', 'en', 'de')),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      subtotal numeric(14,2) NOT NULL DEFAULT 0 CHECK (subtotal >= 0),
      setup_cost_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (setup_cost_total >= 0),
      discount_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (discount_total >= 0),
      shipping_cost numeric(14,2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
      vat_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (vat_total >= 0),
      total numeric(14,2) NOT NULL DEFAULT 0 CHECK (total >= 0),
      terms text,
      notes text,
      internal_notes text,
      rejection_reason text,
      accepted_at timestamptz,
      rejected_at timestamptz,
      expired_at timestamptz,
      sent_at timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_quotation_headers_validity CHECK (valid_until >= quotation_date)
    );
    COMMENT ON COLUMN aplt_quotation_headers.source_code IS 'agent (AI agent), web (storefront), manual (staff in the admin panel), admin (default, existing quotations).';
    CREATE INDEX aplt_quotation_headers_customer_idx ON aplt_quotation_headers (customer_id);
    CREATE INDEX aplt_quotation_headers_brand_idx ON aplt_quotation_headers (brand_id);
    CREATE INDEX aplt_quotation_headers_status_idx ON aplt_quotation_headers (status, valid_until);
    CREATE INDEX aplt_quotation_headers_source_idx ON aplt_quotation_headers (source_code);

    CREATE TABLE aplt_quotation_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      quotation_id bigint NOT NULL REFERENCES aplt_quotation_headers (id) ON DELETE CASCADE,
      line_no integer NOT NULL DEFAULT 1 CHECK (line_no >= 1),
      line_type text NOT NULL DEFAULT 'product' CHECK (line_type IN ('product', 'setup', 'shipping', 'discount', 'text', 'other')),
      product_id bigint REFERENCES aplt_products (id) ON DELETE SET NULL,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE SET NULL,
      sku text,
      description text,
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
      unit_price numeric(14,4) NOT NULL DEFAULT 0,
      discount_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
      technique_id bigint REFERENCES aplt_techniques (id) ON DELETE SET NULL,
      technique_code text,
      technique_name text,
      print_position_id bigint REFERENCES aplt_print_positions (id) ON DELETE SET NULL,
      print_position text,
      print_area text,
      print_colours integer CHECK (print_colours >= 0),
      print_unit_price numeric(14,4) NOT NULL DEFAULT 0 CHECK (print_unit_price >= 0),
      logo_transaction_id uuid,
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE SET NULL,
      vat_rate numeric(5,2) NOT NULL DEFAULT 21 CHECK (vat_rate >= 0 AND vat_rate <= 100),
      line_total numeric(14,2) NOT NULL DEFAULT 0,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_quotation_lines_amounts CHECK (line_type = 'discount' OR (unit_price >= 0 AND line_total >= 0))
    );
    COMMENT ON COLUMN aplt_quotation_lines.logo_transaction_id IS 'Logo-modal transaction (lives in the master aplt DB, hence no foreign key).';
    COMMENT ON COLUMN aplt_quotation_lines.line_total IS 'Line amount excluding VAT; only discount lines may be negative.';
    CREATE INDEX aplt_quotation_lines_quotation_idx ON aplt_quotation_lines (quotation_id, line_no);
    CREATE INDEX aplt_quotation_lines_product_idx ON aplt_quotation_lines (product_id);
    CREATE INDEX aplt_quotation_lines_variant_idx ON aplt_quotation_lines (variant_id);
    CREATE INDEX aplt_quotation_lines_technique_idx ON aplt_quotation_lines (technique_id);
    CREATE INDEX aplt_quotation_lines_print_position_idx ON aplt_quotation_lines (print_position_id);
    CREATE INDEX aplt_quotation_lines_vat_code_idx ON aplt_quotation_lines (vat_code_id);

    CREATE TABLE aplt_quotation_line_setup_costs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      quotation_line_id bigint NOT NULL REFERENCES aplt_quotation_lines (id) ON DELETE CASCADE,
      opstartkosten_id bigint REFERENCES aplt_opstartkosten (id) ON DELETE SET NULL,
      technique_id bigint REFERENCES aplt_techniques (id) ON DELETE SET NULL,
      description text NOT NULL,
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
      unit_cost numeric(14,4) NOT NULL CHECK (unit_cost >= 0),
      total numeric(14,2) NOT NULL CHECK (total >= 0),
      vat_rate numeric(5,2) NOT NULL DEFAULT 21 CHECK (vat_rate >= 0 AND vat_rate <= 100),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN aplt_quotation_line_setup_costs.quantity IS 'Multiplier, e.g. number of colours or positions the setup cost applies to.';
    CREATE INDEX aplt_quotation_line_setup_costs_line_idx ON aplt_quotation_line_setup_costs (quotation_line_id);
    CREATE INDEX aplt_quotation_line_setup_costs_opstart_idx ON aplt_quotation_line_setup_costs (opstartkosten_id);
    CREATE INDEX aplt_quotation_line_setup_costs_technique_idx ON aplt_quotation_line_setup_costs (technique_id);

    CREATE TABLE aplt_order_headers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_number text NOT NULL UNIQUE CHECK (order_number ~ '^O-[0-9]{4}-[0-9]{4,}$'),
      quotation_id bigint UNIQUE REFERENCES aplt_quotation_headers (id) ON DELETE RESTRICT,
      customer_id bigint REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      brand_id bigint REFERENCES aplt_brands (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')),
      source_code varchar(50) NOT NULL DEFAULT 'admin' CHECK (source_code IN ('agent', 'web', 'manual', 'admin')),
      order_date date NOT NULL DEFAULT CURRENT_DATE,
      expected_delivery_date date,
      reference text,
      customer_email text,
      customer_name text,
      customer_company text,
      billing_address jsonb,
      shipping_address jsonb,
      language char(2) NOT NULL DEFAULT 'nl' CHECK (language IN ('nl', 'en', 'de')),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      subtotal numeric(14,2) NOT NULL DEFAULT 0 CHECK (subtotal >= 0),
      setup_cost_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (setup_cost_total >= 0),
      discount_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (discount_total >= 0),
      shipping_cost numeric(14,2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
      vat_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (vat_total >= 0),
      total numeric(14,2) NOT NULL DEFAULT 0 CHECK (total >= 0),
      notes text,
      internal_notes text,
      confirmed_at timestamptz,
      shipped_at timestamptz,
      delivered_at timestamptz,
      cancelled_at timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN aplt_order_headers.quotation_id IS 'Source quotation; UNIQUE so a quotation converts to at most one order.';
    COMMENT ON COLUMN aplt_order_headers.metadata IS 'Free metadata; carries tracking_url once shipped.';
    CREATE INDEX aplt_order_headers_customer_idx ON aplt_order_headers (customer_id);
    CREATE INDEX aplt_order_headers_brand_idx ON aplt_order_headers (brand_id);
    CREATE INDEX aplt_order_headers_status_idx ON aplt_order_headers (status);

    CREATE TABLE aplt_order_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id bigint NOT NULL REFERENCES aplt_order_headers (id) ON DELETE CASCADE,
      quotation_line_id bigint REFERENCES aplt_quotation_lines (id) ON DELETE SET NULL,
      line_no integer NOT NULL DEFAULT 1 CHECK (line_no >= 1),
      line_type text NOT NULL DEFAULT 'product' CHECK (line_type IN ('product', 'setup', 'shipping', 'discount', 'text', 'other')),
      product_id bigint REFERENCES aplt_products (id) ON DELETE SET NULL,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE SET NULL,
      sku text,
      description text,
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
      invoiced_quantity integer NOT NULL DEFAULT 0 CHECK (invoiced_quantity >= 0),
      unit_price numeric(14,4) NOT NULL DEFAULT 0,
      discount_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
      technique_id bigint REFERENCES aplt_techniques (id) ON DELETE SET NULL,
      technique_code text,
      technique_name text,
      print_position_id bigint REFERENCES aplt_print_positions (id) ON DELETE SET NULL,
      print_position text,
      print_area text,
      print_colours integer CHECK (print_colours >= 0),
      print_unit_price numeric(14,4) NOT NULL DEFAULT 0 CHECK (print_unit_price >= 0),
      logo_transaction_id uuid,
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE SET NULL,
      vat_rate numeric(5,2) NOT NULL DEFAULT 21 CHECK (vat_rate >= 0 AND vat_rate <= 100),
      line_total numeric(14,2) NOT NULL DEFAULT 0,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_order_lines_amounts CHECK (line_type = 'discount' OR (unit_price >= 0 AND line_total >= 0)),
      CONSTRAINT aplt_order_lines_invoiced CHECK (invoiced_quantity <= quantity)
    );
    CREATE INDEX aplt_order_lines_order_idx ON aplt_order_lines (order_id, line_no);
    CREATE INDEX aplt_order_lines_quotation_line_idx ON aplt_order_lines (quotation_line_id);
    CREATE INDEX aplt_order_lines_product_idx ON aplt_order_lines (product_id);
    CREATE INDEX aplt_order_lines_variant_idx ON aplt_order_lines (variant_id);
    CREATE INDEX aplt_order_lines_technique_idx ON aplt_order_lines (technique_id);
    CREATE INDEX aplt_order_lines_print_position_idx ON aplt_order_lines (print_position_id);
    CREATE INDEX aplt_order_lines_vat_code_idx ON aplt_order_lines (vat_code_id);

    CREATE TABLE aplt_invoice_headers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      invoice_number text NOT NULL UNIQUE,
      document_type text NOT NULL DEFAULT 'invoice' CHECK (document_type IN ('invoice', 'proforma', 'credit_note')),
      credited_invoice_id bigint REFERENCES aplt_invoice_headers (id) ON DELETE RESTRICT,
      order_id bigint REFERENCES aplt_order_headers (id) ON DELETE RESTRICT,
      customer_id bigint NOT NULL REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      brand_id bigint REFERENCES aplt_brands (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'overdue', 'cancelled')),
      issue_date date NOT NULL DEFAULT CURRENT_DATE,
      due_date date NOT NULL DEFAULT (CURRENT_DATE + 30),
      delivery_date date,
      payment_term_id bigint REFERENCES aplt_payment_terms (id) ON DELETE SET NULL,
      payment_term_days integer NOT NULL DEFAULT 30 CHECK (payment_term_days BETWEEN 0 AND 60),
      reference text,
      customer_email text,
      customer_name text,
      customer_company text,
      customer_vat_number text,
      customer_country char(2) CHECK (customer_country ~ '^[A-Z]{2}$'),
      billing_address jsonb,
      language char(2) NOT NULL DEFAULT 'nl' CHECK (language IN ('nl', 'en', 'de')),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      subtotal numeric(14,2) NOT NULL DEFAULT 0 CHECK (subtotal >= 0),
      vat_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (vat_total >= 0),
      total numeric(14,2) NOT NULL DEFAULT 0 CHECK (total >= 0),
      credited_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (credited_total >= 0),
      paid_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (paid_total >= 0),
      reverse_charge boolean NOT NULL DEFAULT false,
      vat_note text,
      credit_reason text,
      notes text,
      pdf_path text,
      pdf_sha256 char(64),
      pdf_generated_at timestamptz,
      sent_at timestamptz,
      paid_at timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_invoice_headers_number_prefix CHECK (
        invoice_number ~ '^[FPC]-[0-9]{4}-[0-9]{4,}$'
        AND left(invoice_number, 1) = CASE document_type WHEN 'invoice' THEN 'F' WHEN 'proforma' THEN 'P' ELSE 'C' END
      ),
      CONSTRAINT aplt_invoice_headers_credit_link CHECK ((document_type = 'credit_note') = (credited_invoice_id IS NOT NULL)),
      CONSTRAINT aplt_invoice_headers_credited_cap CHECK (credited_total <= total),
      CONSTRAINT aplt_invoice_headers_paid_cap CHECK (paid_total <= total),
      CONSTRAINT aplt_invoice_headers_due_date CHECK (due_date >= issue_date),
      CONSTRAINT aplt_invoice_headers_reverse_charge_vat CHECK (NOT reverse_charge OR (customer_vat_number IS NOT NULL AND vat_total = 0)),
      CONSTRAINT aplt_invoice_headers_not_self_credit CHECK (credited_invoice_id IS NULL OR credited_invoice_id <> id)
    );
    COMMENT ON TABLE aplt_invoice_headers IS 'Invoices (F), proformas (P) and credit notes (C) in one table, told apart by document_type. Decision: the spec lists no credit-note table, so a credit note is a row with document_type credit_note and credited_invoice_id pointing at the invoice it credits (its lines in aplt_invoice_lines with credited_line_id, its VAT in aplt_invoice_vat_summary, an aplt_document_relations row credited). Amounts on credit notes are stored as positive numbers; the sign follows from document_type. On an invoice credited_total is the sum of its credit notes and can never exceed total. Proformas never post to the ledger.';
    COMMENT ON COLUMN aplt_invoice_headers.pdf_path IS 'Persisted PDF (written on first render, served from storage afterwards).';
    CREATE INDEX aplt_invoice_headers_customer_idx ON aplt_invoice_headers (customer_id, issue_date DESC);
    CREATE INDEX aplt_invoice_headers_order_idx ON aplt_invoice_headers (order_id);
    CREATE INDEX aplt_invoice_headers_credited_idx ON aplt_invoice_headers (credited_invoice_id);
    CREATE INDEX aplt_invoice_headers_brand_idx ON aplt_invoice_headers (brand_id);
    CREATE INDEX aplt_invoice_headers_payment_term_idx ON aplt_invoice_headers (payment_term_id);
    CREATE INDEX aplt_invoice_headers_status_due_idx ON aplt_invoice_headers (document_type, status, due_date);

    CREATE TABLE aplt_invoice_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      invoice_id bigint NOT NULL REFERENCES aplt_invoice_headers (id) ON DELETE CASCADE,
      order_line_id bigint REFERENCES aplt_order_lines (id) ON DELETE SET NULL,
      credited_line_id bigint REFERENCES aplt_invoice_lines (id) ON DELETE RESTRICT,
      line_no integer NOT NULL DEFAULT 1 CHECK (line_no >= 1),
      line_type text NOT NULL DEFAULT 'product' CHECK (line_type IN ('product', 'setup', 'shipping', 'discount', 'text', 'other')),
      product_id bigint REFERENCES aplt_products (id) ON DELETE SET NULL,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE SET NULL,
      sku text,
      description text,
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
      credited_quantity integer NOT NULL DEFAULT 0 CHECK (credited_quantity >= 0),
      unit_price numeric(14,4) NOT NULL DEFAULT 0,
      discount_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
      technique_code text,
      technique_name text,
      print_position text,
      print_area text,
      print_colours integer CHECK (print_colours >= 0),
      print_unit_price numeric(14,4) NOT NULL DEFAULT 0 CHECK (print_unit_price >= 0),
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE SET NULL,
      vat_rate numeric(5,2) NOT NULL DEFAULT 21 CHECK (vat_rate >= 0 AND vat_rate <= 100),
      vat_category varchar(2) NOT NULL DEFAULT 'S' CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
      line_total numeric(14,2) NOT NULL DEFAULT 0,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_invoice_lines_amounts CHECK (line_type = 'discount' OR (unit_price >= 0 AND line_total >= 0)),
      CONSTRAINT aplt_invoice_lines_credited_cap CHECK (credited_quantity <= quantity),
      CONSTRAINT aplt_invoice_lines_not_self CHECK (credited_line_id IS NULL OR credited_line_id <> id)
    );
    COMMENT ON COLUMN aplt_invoice_lines.credited_line_id IS 'On a credit-note line: the invoice line it credits.';
    COMMENT ON COLUMN aplt_invoice_lines.credited_quantity IS 'On an invoice line: quantity already credited (capped at quantity).';
    CREATE INDEX aplt_invoice_lines_invoice_idx ON aplt_invoice_lines (invoice_id, line_no);
    CREATE INDEX aplt_invoice_lines_order_line_idx ON aplt_invoice_lines (order_line_id);
    CREATE INDEX aplt_invoice_lines_credited_line_idx ON aplt_invoice_lines (credited_line_id);
    CREATE INDEX aplt_invoice_lines_product_idx ON aplt_invoice_lines (product_id);
    CREATE INDEX aplt_invoice_lines_variant_idx ON aplt_invoice_lines (variant_id);
    CREATE INDEX aplt_invoice_lines_vat_code_idx ON aplt_invoice_lines (vat_code_id);

    CREATE TABLE aplt_invoice_vat_summary (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      invoice_id bigint NOT NULL REFERENCES aplt_invoice_headers (id) ON DELETE CASCADE,
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE SET NULL,
      vat_category varchar(2) NOT NULL DEFAULT 'S' CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
      vat_rate numeric(5,2) NOT NULL CHECK (vat_rate >= 0 AND vat_rate <= 100),
      taxable_amount numeric(14,2) NOT NULL,
      vat_amount numeric(14,2) NOT NULL,
      exemption_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_invoice_vat_summary_key UNIQUE (invoice_id, vat_category, vat_rate)
    );
    COMMENT ON TABLE aplt_invoice_vat_summary IS 'One row per VAT category and rate: vat_amount = round(taxable_amount x rate) once per category (EN 16931 BR-CO-17), not per line.';
    CREATE INDEX aplt_invoice_vat_summary_vat_code_idx ON aplt_invoice_vat_summary (vat_code_id);

    CREATE TABLE aplt_document_relations (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source_type text NOT NULL CHECK (source_type IN ('quotation', 'order', 'invoice', 'proforma', 'credit_note', 'payment')),
      source_id bigint NOT NULL,
      target_type text NOT NULL CHECK (target_type IN ('quotation', 'order', 'invoice', 'proforma', 'credit_note', 'payment')),
      target_id bigint NOT NULL,
      relation_type text NOT NULL CHECK (relation_type IN ('converted', 'invoiced', 'proforma', 'credited', 'allocated', 'copied', 'related')),
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_document_relations_key UNIQUE (source_type, source_id, target_type, target_id, relation_type),
      CONSTRAINT aplt_document_relations_not_self CHECK (source_type <> target_type OR source_id <> target_id)
    );
    COMMENT ON TABLE aplt_document_relations IS 'Document chain edges source -> target (quotation -converted-> order -invoiced-> invoice -credited-> credit_note; invoice -allocated-> payment). Ids point into the header table of the named type (credit_note/proforma/invoice all in aplt_invoice_headers, payment in aplt_payments); polymorphic, so not a foreign key.';
    CREATE UNIQUE INDEX aplt_document_relations_one_conversion_idx ON aplt_document_relations (source_id)
      WHERE source_type = 'quotation' AND relation_type = 'converted';
    CREATE INDEX aplt_document_relations_target_idx ON aplt_document_relations (target_type, target_id);

    -- ===========================================================================
    -- Payments, customer credit, journal
    -- ===========================================================================
    CREATE TABLE aplt_payments (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      payment_number text NOT NULL UNIQUE CHECK (payment_number ~ '^B-[0-9]{4}-[0-9]{4,}$'),
      customer_id bigint REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      payment_date date NOT NULL DEFAULT CURRENT_DATE,
      amount numeric(14,2) NOT NULL CHECK (amount > 0),
      allocated_total numeric(14,2) NOT NULL DEFAULT 0 CHECK (allocated_total >= 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      method text NOT NULL DEFAULT 'bank_transfer'
        CHECK (method IN ('bank_transfer', 'ideal', 'card', 'cash', 'direct_debit', 'paypal', 'other')),
      status text NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'reversed')),
      reference text,
      bank_account text,
      notes text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_payments_allocation_cap CHECK (allocated_total <= amount)
    );
    CREATE INDEX aplt_payments_customer_idx ON aplt_payments (customer_id, payment_date DESC);

    CREATE TABLE aplt_unapplied_credits (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      customer_id bigint NOT NULL REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      source_type text NOT NULL CHECK (source_type IN ('payment', 'credit_note', 'manual')),
      payment_id bigint REFERENCES aplt_payments (id) ON DELETE RESTRICT,
      credit_note_id bigint REFERENCES aplt_invoice_headers (id) ON DELETE RESTRICT,
      amount numeric(14,2) NOT NULL CHECK (amount > 0),
      remaining_amount numeric(14,2) NOT NULL CHECK (remaining_amount >= 0),
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'used', 'refunded')),
      notes text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_unapplied_credits_remaining_cap CHECK (remaining_amount <= amount),
      CONSTRAINT aplt_unapplied_credits_source CHECK (
        (source_type = 'payment' AND payment_id IS NOT NULL AND credit_note_id IS NULL)
        OR (source_type = 'credit_note' AND credit_note_id IS NOT NULL AND payment_id IS NULL)
        OR (source_type = 'manual' AND payment_id IS NULL AND credit_note_id IS NULL)
      )
    );
    COMMENT ON TABLE aplt_unapplied_credits IS 'Customer credit (overpayments, or a credit note on an already paid invoice); remaining_amount is consumed by later aplt_payment_allocations rows.';
    CREATE INDEX aplt_unapplied_credits_customer_idx ON aplt_unapplied_credits (customer_id) WHERE remaining_amount > 0;
    CREATE INDEX aplt_unapplied_credits_payment_idx ON aplt_unapplied_credits (payment_id);
    CREATE INDEX aplt_unapplied_credits_credit_note_idx ON aplt_unapplied_credits (credit_note_id);

    CREATE TABLE aplt_payment_allocations (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      payment_id bigint REFERENCES aplt_payments (id) ON DELETE CASCADE,
      unapplied_credit_id bigint REFERENCES aplt_unapplied_credits (id) ON DELETE RESTRICT,
      invoice_id bigint NOT NULL REFERENCES aplt_invoice_headers (id) ON DELETE RESTRICT,
      amount numeric(14,2) NOT NULL CHECK (amount > 0),
      allocated_at timestamptz NOT NULL DEFAULT now(),
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_payment_allocations_one_source CHECK (num_nonnulls(payment_id, unapplied_credit_id) = 1)
    );
    COMMENT ON TABLE aplt_payment_allocations IS 'Allocation of money to an invoice: either from a payment (payment_id) or from customer credit (unapplied_credit_id).';
    CREATE INDEX aplt_payment_allocations_payment_idx ON aplt_payment_allocations (payment_id);
    CREATE INDEX aplt_payment_allocations_credit_idx ON aplt_payment_allocations (unapplied_credit_id);
    CREATE INDEX aplt_payment_allocations_invoice_idx ON aplt_payment_allocations (invoice_id);

    CREATE TABLE aplt_journal_entries (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entry_date date NOT NULL DEFAULT CURRENT_DATE,
      description text,
      source_type text NOT NULL CHECK (source_type IN ('invoice', 'credit_note', 'payment', 'allocation', 'manual')),
      source_id bigint,
      reversal_of_id bigint REFERENCES aplt_journal_entries (id) ON DELETE RESTRICT,
      currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_journal_entries IS 'Double-entry journal entries; a deferred constraint trigger checks at commit that the lines of every touched entry balance (sum debit = sum credit).';
    CREATE INDEX aplt_journal_entries_source_idx ON aplt_journal_entries (source_type, source_id);
    CREATE INDEX aplt_journal_entries_reversal_idx ON aplt_journal_entries (reversal_of_id);
    CREATE INDEX aplt_journal_entries_date_idx ON aplt_journal_entries (entry_date);

    CREATE TABLE aplt_journal_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      journal_entry_id bigint NOT NULL REFERENCES aplt_journal_entries (id) ON DELETE CASCADE,
      ledger_account_id bigint NOT NULL REFERENCES aplt_ledger_accounts (id) ON DELETE RESTRICT,
      debit numeric(14,2) NOT NULL DEFAULT 0 CHECK (debit >= 0),
      credit numeric(14,2) NOT NULL DEFAULT 0 CHECK (credit >= 0),
      description text,
      customer_id bigint REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      vat_code_id bigint REFERENCES aplt_vat_codes (id) ON DELETE RESTRICT,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_journal_lines_one_side CHECK ((debit > 0) <> (credit > 0))
    );
    CREATE INDEX aplt_journal_lines_entry_idx ON aplt_journal_lines (journal_entry_id);
    CREATE INDEX aplt_journal_lines_account_idx ON aplt_journal_lines (ledger_account_id);
    CREATE INDEX aplt_journal_lines_customer_idx ON aplt_journal_lines (customer_id);
    CREATE INDEX aplt_journal_lines_vat_code_idx ON aplt_journal_lines (vat_code_id);

    CREATE FUNCTION aplt_journal_check_balance() RETURNS trigger
      LANGUAGE plpgsql AS $$
    DECLARE
      entry_id bigint;
      diff numeric;
    BEGIN
      IF TG_OP = 'DELETE' THEN
        entry_id := OLD.journal_entry_id;
      ELSE
        entry_id := NEW.journal_entry_id;
      END IF;
      SELECT coalesce(sum(debit), 0) - coalesce(sum(credit), 0) INTO diff
        FROM aplt_journal_lines WHERE journal_entry_id = entry_id;
      IF diff <> 0 THEN
        RAISE EXCEPTION 'journal entry % is not balanced (debit - credit = %)', entry_id, diff
          USING ERRCODE = 'check_violation';
      END IF;
      IF TG_OP = 'UPDATE' AND OLD.journal_entry_id <> NEW.journal_entry_id THEN
        SELECT coalesce(sum(debit), 0) - coalesce(sum(credit), 0) INTO diff
          FROM aplt_journal_lines WHERE journal_entry_id = OLD.journal_entry_id;
        IF diff <> 0 THEN
          RAISE EXCEPTION 'journal entry % is not balanced (debit - credit = %)', OLD.journal_entry_id, diff
            USING ERRCODE = 'check_violation';
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER aplt_journal_lines_balanced_trg
      AFTER INSERT OR UPDATE OR DELETE ON aplt_journal_lines
      DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION aplt_journal_check_balance();

    -- ===========================================================================
    -- Returns (customer portal)
    -- ===========================================================================
    CREATE TABLE aplt_returns (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      return_number text UNIQUE,
      customer_id bigint NOT NULL REFERENCES aplt_customers (id) ON DELETE RESTRICT,
      order_id bigint REFERENCES aplt_order_headers (id) ON DELETE SET NULL,
      invoice_id bigint REFERENCES aplt_invoice_headers (id) ON DELETE SET NULL,
      credit_note_id bigint REFERENCES aplt_invoice_headers (id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'requested'
        CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded', 'closed')),
      remark text,
      resolution text,
      customer_email text,
      decided_by text,
      decided_at timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_returns_customer_idx ON aplt_returns (customer_id, created_at DESC);
    CREATE INDEX aplt_returns_order_idx ON aplt_returns (order_id);
    CREATE INDEX aplt_returns_invoice_idx ON aplt_returns (invoice_id);
    CREATE INDEX aplt_returns_credit_note_idx ON aplt_returns (credit_note_id);

    CREATE TABLE aplt_return_lines (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      return_id bigint NOT NULL REFERENCES aplt_returns (id) ON DELETE CASCADE,
      order_line_id bigint REFERENCES aplt_order_lines (id) ON DELETE SET NULL,
      invoice_line_id bigint REFERENCES aplt_invoice_lines (id) ON DELETE SET NULL,
      product_id bigint REFERENCES aplt_products (id) ON DELETE SET NULL,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE SET NULL,
      sku text,
      description text,
      quantity integer NOT NULL CHECK (quantity > 0),
      reason text NOT NULL CHECK (reason IN ('damaged', 'wrong_product', 'not_as_expected', 'defective', 'other')),
      reason_text text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_return_lines_other_reason CHECK (reason <> 'other' OR length(btrim(reason_text)) > 0)
    );
    CREATE INDEX aplt_return_lines_return_idx ON aplt_return_lines (return_id);
    CREATE INDEX aplt_return_lines_order_line_idx ON aplt_return_lines (order_line_id);
    CREATE INDEX aplt_return_lines_invoice_line_idx ON aplt_return_lines (invoice_line_id);
    CREATE INDEX aplt_return_lines_product_idx ON aplt_return_lines (product_id);
    CREATE INDEX aplt_return_lines_variant_idx ON aplt_return_lines (variant_id);

    CREATE TABLE aplt_return_photos (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      return_id bigint NOT NULL REFERENCES aplt_returns (id) ON DELETE CASCADE,
      return_line_id bigint REFERENCES aplt_return_lines (id) ON DELETE SET NULL,
      slot smallint NOT NULL CHECK (slot BETWEEN 1 AND 3),
      file_path text NOT NULL,
      original_filename text,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
      size_bytes integer NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 5242880),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_return_photos_slot_key UNIQUE (return_id, slot)
    );
    COMMENT ON COLUMN aplt_return_photos.slot IS 'Slot 1..3, unique per return: the database itself caps a return at 3 photos (each at most 5 MB).';
    CREATE INDEX aplt_return_photos_line_idx ON aplt_return_photos (return_line_id);

    -- ===========================================================================
    -- CMS
    -- ===========================================================================
    CREATE TABLE aplt_cms_settings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      brand_id bigint NOT NULL REFERENCES aplt_brands (id) ON DELETE CASCADE,
      key text NOT NULL,
      value text,
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cms_settings_key UNIQUE (brand_id, key)
    );
    COMMENT ON TABLE aplt_cms_settings IS 'Key/value per brand; company data printed on PDFs and e-mail drafts (company_name, address, postal_code, city, country, coc_number, vat_number, iban, email, phone, logo_url).';

    CREATE TABLE aplt_cms_pages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      brand_id bigint NOT NULL REFERENCES aplt_brands (id) ON DELETE CASCADE,
      slug text NOT NULL,
      template text NOT NULL DEFAULT 'default',
      title_nl text NOT NULL,
      title_en text,
      title_de text,
      content_nl text,
      content_en text,
      content_de text,
      meta_title_nl text,
      meta_title_en text,
      meta_title_de text,
      meta_description_nl text,
      meta_description_en text,
      meta_description_de text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
      published_at timestamptz,
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cms_pages_slug_key UNIQUE (brand_id, slug)
    );

    CREATE TABLE aplt_cms_menus (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      brand_id bigint NOT NULL REFERENCES aplt_brands (id) ON DELETE CASCADE,
      code text NOT NULL,
      name text NOT NULL,
      location text NOT NULL DEFAULT 'header' CHECK (location IN ('header', 'footer', 'sidebar', 'mobile', 'other')),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cms_menus_code_key UNIQUE (brand_id, code)
    );

    CREATE TABLE aplt_cms_menu_items (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      menu_id bigint NOT NULL REFERENCES aplt_cms_menus (id) ON DELETE CASCADE,
      parent_id bigint REFERENCES aplt_cms_menu_items (id) ON DELETE CASCADE,
      label_nl text NOT NULL,
      label_en text,
      label_de text,
      url text,
      page_id bigint REFERENCES aplt_cms_pages (id) ON DELETE SET NULL,
      category_id bigint REFERENCES aplt_categories (id) ON DELETE SET NULL,
      open_in_new_tab boolean NOT NULL DEFAULT false,
      sort_order integer NOT NULL DEFAULT 0,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cms_menu_items_not_own_parent CHECK (parent_id IS NULL OR parent_id <> id)
    );
    CREATE INDEX aplt_cms_menu_items_menu_idx ON aplt_cms_menu_items (menu_id, sort_order);
    CREATE INDEX aplt_cms_menu_items_parent_idx ON aplt_cms_menu_items (parent_id);
    CREATE INDEX aplt_cms_menu_items_page_idx ON aplt_cms_menu_items (page_id);
    CREATE INDEX aplt_cms_menu_items_category_idx ON aplt_cms_menu_items (category_id);

    CREATE TABLE aplt_cms_footer_sections (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      brand_id bigint NOT NULL REFERENCES aplt_brands (id) ON DELETE CASCADE,
      title_nl text NOT NULL,
      title_en text,
      title_de text,
      content_nl text,
      content_en text,
      content_de text,
      sort_order integer NOT NULL DEFAULT 0,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_cms_footer_sections_brand_idx ON aplt_cms_footer_sections (brand_id, sort_order);

    CREATE TABLE aplt_cms_footer_links (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      section_id bigint NOT NULL REFERENCES aplt_cms_footer_sections (id) ON DELETE CASCADE,
      label_nl text NOT NULL,
      label_en text,
      label_de text,
      url text,
      page_id bigint REFERENCES aplt_cms_pages (id) ON DELETE SET NULL,
      open_in_new_tab boolean NOT NULL DEFAULT false,
      sort_order integer NOT NULL DEFAULT 0,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_cms_footer_links_target CHECK (url IS NOT NULL OR page_id IS NOT NULL)
    );
    CREATE INDEX aplt_cms_footer_links_section_idx ON aplt_cms_footer_links (section_id, sort_order);
    CREATE INDEX aplt_cms_footer_links_page_idx ON aplt_cms_footer_links (page_id);

    -- ===========================================================================
    -- 3D / design
    -- ===========================================================================
    CREATE TABLE aplt_3d_config (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name text NOT NULL,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      is_default boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON COLUMN aplt_3d_config.settings IS 'Viewer settings: camera, lighting, environment, background, controls.';
    CREATE UNIQUE INDEX aplt_3d_config_one_default_idx ON aplt_3d_config (is_default) WHERE is_default;

    CREATE TABLE aplt_3d_products (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_id bigint NOT NULL UNIQUE REFERENCES aplt_products (id) ON DELETE CASCADE,
      model_url text NOT NULL,
      model_format text NOT NULL DEFAULT 'glb' CHECK (model_format IN ('glb', 'gltf', 'obj', 'fbx', 'usdz')),
      thumbnail_url text,
      scale numeric(10,4) NOT NULL DEFAULT 1 CHECK (scale > 0),
      is_active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE aplt_3d_products_config (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      product_3d_id bigint NOT NULL REFERENCES aplt_3d_products (id) ON DELETE CASCADE,
      config_id bigint REFERENCES aplt_3d_config (id) ON DELETE SET NULL,
      variant_id bigint REFERENCES aplt_product_variants (id) ON DELETE CASCADE,
      print_position_id bigint REFERENCES aplt_print_positions (id) ON DELETE CASCADE,
      mesh_name text,
      uv_map jsonb,
      material jsonb,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_3d_products_config_key UNIQUE NULLS NOT DISTINCT (product_3d_id, variant_id, print_position_id)
    );
    CREATE INDEX aplt_3d_products_config_config_idx ON aplt_3d_products_config (config_id);
    CREATE INDEX aplt_3d_products_config_variant_idx ON aplt_3d_products_config (variant_id);
    CREATE INDEX aplt_3d_products_config_position_idx ON aplt_3d_products_config (print_position_id);

    -- ===========================================================================
    -- Logo modal (used in the master aplt DB)
    -- ===========================================================================
    CREATE TABLE aplt_logo_transactions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      basket_id text,
      customer_id text,
      source text,
      product_sku text NOT NULL,
      variant_sku text,
      selected_color text,
      technique_code text,
      technique_name text,
      print_area text CHECK (print_area ~ '^[0-9]+([.][0-9]+)?x[0-9]+([.][0-9]+)?$'),
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
      callback_url text,
      callback_status text NOT NULL DEFAULT 'none' CHECK (callback_status IN ('none', 'pending', 'delivered', 'failed')),
      callback_attempts integer NOT NULL DEFAULT 0 CHECK (callback_attempts >= 0),
      callback_delivered_at timestamptz,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'completed', 'cancelled')),
      logo_config jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(logo_config) = 'object'),
      files jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(files) = 'object'),
      completed_at timestamptz,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_logo_transactions IS 'Logo-configurator transactions (spec 3): draft on creation, completed after Add to Order, cancelled by DELETE (files removed).';
    CREATE INDEX aplt_logo_transactions_basket_idx ON aplt_logo_transactions (basket_id);
    CREATE INDEX aplt_logo_transactions_status_idx ON aplt_logo_transactions (status, created_at);

    CREATE TABLE aplt_logo_files (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      transaction_id uuid NOT NULL REFERENCES aplt_logo_transactions (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('logo_original', 'logo_sanitized', 'screenshot', 'screenshot_hq', 'pdf', 'eps', 'zip')),
      storage_key text NOT NULL,
      content_type text NOT NULL,
      size_bytes bigint CHECK (size_bytes >= 0),
      sha256 char(64),
      width_px integer CHECK (width_px > 0),
      height_px integer CHECK (height_px > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_logo_files_kind_key UNIQUE (transaction_id, kind)
    );

    CREATE TABLE aplt_logo_cache (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      cache_key text NOT NULL UNIQUE,
      source_url text,
      content_type text,
      storage_key text NOT NULL,
      width_px integer CHECK (width_px > 0),
      height_px integer CHECK (height_px > 0),
      size_bytes bigint CHECK (size_bytes >= 0),
      sha256 char(64),
      expires_at timestamptz,
      last_accessed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_logo_cache IS 'Cache of processed logo renditions (sanitised SVG, rasterised PNG, EPS) keyed by content hash + rendition.';
    CREATE INDEX aplt_logo_cache_expires_idx ON aplt_logo_cache (expires_at);

    -- ===========================================================================
    -- Connectors
    -- ===========================================================================
    CREATE TABLE aplt_connector_sync (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      connector text NOT NULL,
      supplier_code char(2) REFERENCES aplt_suppliers (code) ON UPDATE CASCADE ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
      job_id text,
      source text,
      triggered_by text,
      rows_read integer NOT NULL DEFAULT 0 CHECK (rows_read >= 0),
      rows_inserted integer NOT NULL DEFAULT 0 CHECK (rows_inserted >= 0),
      rows_updated integer NOT NULL DEFAULT 0 CHECK (rows_updated >= 0),
      rows_rejected integer NOT NULL DEFAULT 0 CHECK (rows_rejected >= 0),
      progress numeric(5,2) CHECK (progress >= 0 AND progress <= 100),
      error text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      queued_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_connector_sync IS 'One row per connector run (<supplier>_<products|stock|prices|printdata>; also commerce_sync / tenant_update runs). At most one queued-or-running row per connector (partial unique index).';
    CREATE UNIQUE INDEX aplt_connector_sync_one_active_idx ON aplt_connector_sync (connector) WHERE status IN ('queued', 'running');
    CREATE INDEX aplt_connector_sync_connector_idx ON aplt_connector_sync (connector, created_at DESC);
    CREATE INDEX aplt_connector_sync_supplier_idx ON aplt_connector_sync (supplier_code);
    CREATE INDEX aplt_connector_sync_job_idx ON aplt_connector_sync (job_id);

    CREATE TABLE aplt_connector_rejects (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      sync_id bigint NOT NULL REFERENCES aplt_connector_sync (id) ON DELETE CASCADE,
      row_number integer CHECK (row_number >= 0),
      key text,
      reason text NOT NULL,
      raw jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_connector_rejects IS 'Rows rejected by an import run (e.g. stock for an unknown SKU), reported row by row.';
    CREATE INDEX aplt_connector_rejects_sync_idx ON aplt_connector_rejects (sync_id, row_number);

    CREATE TABLE partner_order_sync (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source_reference text NOT NULL,
      quotation_id bigint REFERENCES aplt_quotation_headers (id) ON DELETE SET NULL,
      order_id bigint REFERENCES aplt_order_headers (id) ON DELETE SET NULL,
      partner_process_id text,
      partner_document_id text,
      customer_name text,
      customer_email text,
      partner_organisation_id text,
      status text NOT NULL DEFAULT 'pushed' CHECK (status IN ('pushed', 'confirmed', 'shipped', 'delivered', 'cancelled')),
      order_data jsonb,
      partner_response jsonb,
      synced_via text NOT NULL DEFAULT 'agent' CHECK (synced_via IN ('agent', 'n8n')),
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE partner_order_sync IS 'Planned partner fulfilment mapping (spec 1): our quotation/order -> partner process id and document id.';
    CREATE INDEX partner_order_sync_source_idx ON partner_order_sync (source_reference);
    CREATE INDEX partner_order_sync_quotation_idx ON partner_order_sync (quotation_id);
    CREATE INDEX partner_order_sync_order_idx ON partner_order_sync (order_id);
    CREATE INDEX partner_order_sync_partner_idx ON partner_order_sync (partner_process_id, partner_document_id);

    -- ===========================================================================
    -- Dev projects
    -- ===========================================================================
    CREATE SEQUENCE aplt_dev_projects_code_seq;
    CREATE TABLE aplt_dev_projects (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_code text NOT NULL UNIQUE
        DEFAULT ('DP-' || lpad(nextval('aplt_dev_projects_code_seq')::text, 4, '0'))
        CHECK (project_code ~ '^[A-Za-z0-9][A-Za-z0-9_-]*$'),
      name text NOT NULL,
      description text,
      project_type text NOT NULL DEFAULT 'feature' CHECK (project_type IN ('feature', 'bugfix', 'enhancement')),
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'in_progress', 'testing', 'deployed')),
      priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'critical')),
      version text NOT NULL DEFAULT '0.1.0.0' CHECK (version ~ '^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$'),
      branch_name text GENERATED ALWAYS AS ('dev-project/' || project_code) STORED,
      assigned_to text,
      target_date date,
      ticket_number text,
      ticket_id bigint,
      tenant text,
      created_by text,
      deployed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER SEQUENCE aplt_dev_projects_code_seq OWNED BY aplt_dev_projects.project_code;
    COMMENT ON COLUMN aplt_dev_projects.project_code IS 'Auto-generated unique code (DP-0001, ...); the git branch is dev-project/<project_code>.';
    COMMENT ON COLUMN aplt_dev_projects.ticket_id IS 'Portal ticket id (portal lives in MySQL, hence no foreign key).';
    CREATE INDEX aplt_dev_projects_status_idx ON aplt_dev_projects (status);
    CREATE INDEX aplt_dev_projects_ticket_idx ON aplt_dev_projects (ticket_id);

    CREATE TABLE aplt_dev_project_files (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES aplt_dev_projects (id) ON DELETE CASCADE,
      file_path text NOT NULL,
      change_type text NOT NULL DEFAULT 'modified' CHECK (change_type IN ('added', 'modified', 'deleted', 'renamed')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_dev_project_files_key UNIQUE (project_id, file_path)
    );

    CREATE TABLE aplt_dev_project_changelog (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES aplt_dev_projects (id) ON DELETE CASCADE,
      action text NOT NULL,
      description text,
      changed_by text,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_dev_project_changelog_project_idx ON aplt_dev_project_changelog (project_id, created_at);

    -- ===========================================================================
    -- System
    -- ===========================================================================
    CREATE TABLE aplt_modules (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code text NOT NULL UNIQUE,
      name text NOT NULL,
      description text,
      feature_key text,
      version text,
      is_core boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      settings_schema jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE aplt_tenant_modules (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint NOT NULL REFERENCES aplt_tenants (id) ON DELETE CASCADE,
      module_id bigint NOT NULL REFERENCES aplt_modules (id) ON DELETE CASCADE,
      is_enabled boolean NOT NULL DEFAULT true,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      enabled_at timestamptz,
      expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT aplt_tenant_modules_key UNIQUE (tenant_id, module_id)
    );
    CREATE INDEX aplt_tenant_modules_module_idx ON aplt_tenant_modules (module_id);

    CREATE TABLE aplt_releases (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      version text NOT NULL UNIQUE CHECK (version ~ '^[0-9]+[.][0-9]+[.][0-9]+([.][0-9]+)?$'),
      title text,
      notes text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'released', 'withdrawn')),
      commit_sha text,
      dev_project_id bigint REFERENCES aplt_dev_projects (id) ON DELETE SET NULL,
      released_at timestamptz,
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_releases_dev_project_idx ON aplt_releases (dev_project_id);

    CREATE TABLE aplt_deployment_logs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint REFERENCES aplt_tenants (id) ON DELETE SET NULL,
      release_id bigint REFERENCES aplt_releases (id) ON DELETE SET NULL,
      dev_project_id bigint REFERENCES aplt_dev_projects (id) ON DELETE SET NULL,
      environment text,
      version text,
      commit_sha text,
      status text NOT NULL DEFAULT 'started' CHECK (status IN ('started', 'succeeded', 'failed', 'rolled_back')),
      message text,
      log text,
      started_by text,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_deployment_logs_tenant_idx ON aplt_deployment_logs (tenant_id, started_at DESC);
    CREATE INDEX aplt_deployment_logs_release_idx ON aplt_deployment_logs (release_id);
    CREATE INDEX aplt_deployment_logs_dev_project_idx ON aplt_deployment_logs (dev_project_id);

    CREATE TABLE aplt_migrations (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL UNIQUE,
      batch integer NOT NULL DEFAULT 1,
      checksum text,
      applied_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE aplt_migrations IS 'Record of data migrations / tenant updates applied to this aplt database (schema migrations themselves are tracked by Kysely).';

    CREATE TABLE aplt_audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      actor text,
      actor_type text NOT NULL DEFAULT 'system' CHECK (actor_type IN ('admin', 'customer', 'agent', 'automation', 'system', 'anonymous')),
      action text NOT NULL,
      entity_type text NOT NULL,
      entity_id text,
      changes jsonb,
      ip inet,
      user_agent text,
      request_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX aplt_audit_log_entity_idx ON aplt_audit_log (entity_type, entity_id, created_at DESC);
    CREATE INDEX aplt_audit_log_created_idx ON aplt_audit_log (created_at);

    -- ===========================================================================
    -- updated_at maintenance on every table that has the column
    -- ===========================================================================
    DO $$
    DECLARE
      t text;
    BEGIN
      FOR t IN
        SELECT c.table_name
          FROM information_schema.columns c
          JOIN information_schema.tables tb
            ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
         WHERE c.table_schema = current_schema()
           AND c.column_name = 'updated_at'
           AND (c.table_name LIKE 'aplt%' OR c.table_name = 'partner_order_sync')
      LOOP
        EXECUTE format(
          'CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION aplt_set_updated_at()',
          t || '_updated_at_trg', t
        );
      END LOOP;
    END $$;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE IF EXISTS
      aplt_audit_log,
      aplt_migrations,
      aplt_deployment_logs,
      aplt_releases,
      aplt_tenant_modules,
      aplt_modules,
      aplt_dev_project_changelog,
      aplt_dev_project_files,
      aplt_dev_projects,
      partner_order_sync,
      aplt_connector_rejects,
      aplt_connector_sync,
      aplt_logo_cache,
      aplt_logo_files,
      aplt_logo_transactions,
      aplt_3d_products_config,
      aplt_3d_products,
      aplt_3d_config,
      aplt_cms_footer_links,
      aplt_cms_footer_sections,
      aplt_cms_menu_items,
      aplt_cms_menus,
      aplt_cms_pages,
      aplt_cms_settings,
      aplt_return_photos,
      aplt_return_lines,
      aplt_returns,
      aplt_journal_lines,
      aplt_journal_entries,
      aplt_payment_allocations,
      aplt_unapplied_credits,
      aplt_payments,
      aplt_document_relations,
      aplt_invoice_vat_summary,
      aplt_invoice_lines,
      aplt_invoice_headers,
      aplt_order_lines,
      aplt_order_headers,
      aplt_quotation_line_setup_costs,
      aplt_quotation_lines,
      aplt_quotation_headers,
      aplt_access_requests,
      aplt_email_verifications,
      aplt_otp_attempts,
      aplt_otp_codes,
      aplt_customer_2fa,
      aplt_customers,
      aplt_product_techniques,
      aplt_print_positions,
      aplt_opstartkosten,
      aplt_technique_pricing,
      aplt_techniques,
      aplt_category_mappings,
      aplt_product_prices,
      aplt_stock,
      aplt_skus,
      aplt_product_variants,
      aplt_products,
      aplt_categories,
      aplt_colors,
      aplt_discount_groups,
      aplt_suppliers,
      aplt_vat_codes,
      aplt_ledger_accounts,
      aplt_payment_terms,
      aplt_number_sequences,
      aplt_settings,
      aplt_brands,
      aplt_tenants
      CASCADE;
    DROP FUNCTION IF EXISTS aplt_journal_check_balance();
    DROP FUNCTION IF EXISTS aplt_product_variants_register_sku();
    DROP FUNCTION IF EXISTS aplt_products_register_sku();
    DROP FUNCTION IF EXISTS aplt_set_updated_at();
    DROP FUNCTION IF EXISTS aplt_f_unaccent(text);
  `.execute(db);
}
