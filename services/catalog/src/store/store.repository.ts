import { type Kysely, sql } from '@aplt/db';

export type Lang = 'nl' | 'en' | 'de';
const nameCol = { nl: sql.ref('p.name_nl'), en: sql.ref('p.name_en'), de: sql.ref('p.name_de') };
const descCol = {
  nl: sql.ref('p.description_nl'),
  en: sql.ref('p.description_en'),
  de: sql.ref('p.description_de'),
};

export interface StoreProductQuery {
  q?: string | undefined;
  category?: string | undefined;
  lang: Lang;
  quantity: number;
  limit: number;
  offset: number;
}

/**
 * Sellable products only (is_sellable: a retail_price_100 and status active), in the asked
 * language with Dutch as fallback, and the retail unit price that applies at `quantity` (the
 * highest scale not above it, else retail_price_100). One statement; count with a window.
 */
export async function listStoreProducts(db: Kysely<any>, q: StoreProductQuery) {
  const search = q.q?.trim() ? q.q.trim().toLowerCase() : null;
  const rows = await sql<any>`
    SELECT p.id, p.sku, coalesce(${nameCol[q.lang]}, p.name_nl) AS name,
      coalesce(${descCol[q.lang]}, p.description_nl) AS description, p.brand, p.material, p.image_url,
      p.retail_price_100::text AS retail_price_100, p.min_order_quantity, p.supplier_code,
      coalesce((SELECT x.price FROM aplt_product_prices x WHERE x.product_id = p.id AND x.variant_id IS NULL
        AND x.price_list = 'retail' AND x.min_quantity <= ${q.quantity} ORDER BY x.min_quantity DESC LIMIT 1),
        p.retail_price_100)::text AS unit_price,
      coalesce((SELECT json_agg(json_build_object('sku', v.sku, 'color_code', v.color_code, 'color_name', v.color_name,
        'hex', v.hex, 'stock', s.quantity) ORDER BY v.sku)
        FROM aplt_product_variants v LEFT JOIN aplt_stock s ON s.sku = v.sku WHERE v.product_id = p.id AND v.is_active), '[]') AS variants,
      coalesce((SELECT json_agg(c.code ORDER BY c.code) FROM aplt_category_mappings m JOIN aplt_categories c ON c.id = m.category_id
        WHERE m.product_id = p.id), '[]') AS categories,
      count(*) OVER () AS total
    FROM aplt_products p
    WHERE p.is_sellable
      ${search ? sql`AND (p.search_vector @@ plainto_tsquery('simple', aplt_f_unaccent(${search})) OR p.search_text % aplt_f_unaccent(${search}) OR p.search_text LIKE '%' || aplt_f_unaccent(${search}) || '%')` : sql``}
      ${
        q.category
          ? sql`AND EXISTS (SELECT 1 FROM aplt_category_mappings m JOIN aplt_categories c ON c.id = m.category_id
        WHERE m.product_id = p.id AND (c.code = ${q.category} OR c.slug = ${q.category}
          OR c.parent_id IN (SELECT id FROM aplt_categories WHERE code = ${q.category} OR slug = ${q.category})))`
          : sql``
      }
    ORDER BY ${search ? sql`similarity(p.search_text, aplt_f_unaccent(${search})) DESC,` : sql``} p.id
    LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return { rows: rows.rows, count: rows.rows.length ? Number(rows.rows[0].total) : 0 };
}

export async function listCategories(db: Kysely<any>, lang: Lang) {
  const col = { nl: sql.ref('name_nl'), en: sql.ref('name_en'), de: sql.ref('name_de') }[lang];
  const r = await sql<{
    id: number;
    parent_id: number | null;
    code: string;
    slug: string;
    name: string;
    sort_order: number;
  }>`
    SELECT id, parent_id, code, slug, coalesce(${col}, name_nl) AS name, sort_order
    FROM aplt_categories WHERE is_active ORDER BY sort_order, name_nl`.execute(db);
  return r.rows;
}
