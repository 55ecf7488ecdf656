import { type Kysely, sql } from 'kysely';

/**
 * The details of one store-catalog page (name in the asked language, price at a quantity,
 * variants with stock, category codes) for a list of product ids, in the order given. It is a
 * plpgsql function because plpgsql keeps the plan of its query per connection: planning this
 * query (three correlated sub-selects) costs several times its execution, and the store route
 * runs it on every request.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION aplt_store_product_details(p_ids bigint[], p_lang text, p_quantity integer)
    RETURNS TABLE (id bigint, sku text, name text, description text, brand text, material text, image_url text,
      retail_price_100 text, supplier_code text, unit_price text, variants json, categories json)
    LANGUAGE plpgsql STABLE AS $fn$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
      SELECT p.id, p.sku,
        CASE p_lang WHEN 'en' THEN coalesce(p.name_en, p.name_nl) WHEN 'de' THEN coalesce(p.name_de, p.name_nl) ELSE p.name_nl END,
        CASE p_lang WHEN 'en' THEN coalesce(p.description_en, p.description_nl)
          WHEN 'de' THEN coalesce(p.description_de, p.description_nl) ELSE p.description_nl END,
        p.brand, p.material, p.image_url, p.retail_price_100::text, p.supplier_code::text,
        coalesce((SELECT x.price FROM aplt_product_prices x WHERE x.product_id = p.id AND x.variant_id IS NULL
          AND x.price_list = 'retail' AND x.min_quantity <= p_quantity ORDER BY x.min_quantity DESC LIMIT 1),
          p.retail_price_100)::text,
        coalesce((SELECT json_agg(json_build_object('sku', v.sku, 'color_code', v.color_code, 'color_name', v.color_name,
            'hex', v.hex, 'stock', s.quantity) ORDER BY v.sku)
          FROM aplt_product_variants v LEFT JOIN aplt_stock s ON s.sku = v.sku
          WHERE v.product_id = p.id AND v.is_active), '[]'::json),
        coalesce((SELECT json_agg(c.code ORDER BY c.code) FROM aplt_category_mappings m
          JOIN aplt_categories c ON c.id = m.category_id WHERE m.product_id = p.id), '[]'::json)
      FROM unnest(p_ids) WITH ORDINALITY AS page(pid, ord)
      JOIN aplt_products p ON p.id = page.pid
      ORDER BY page.ord;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS aplt_store_product_details(bigint[], text, integer)`.execute(db);
}
