import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import type { SearchFilters } from './query-parser';

export interface SearchHit {
  id: number;
  sku: string;
  name_nl: string;
  name_en: string | null;
  name_de: string | null;
  unit_price: string | null;
  quantity: number;
  colours: string[];
  techniques: string[];
  rank: number;
}

/**
 * Ranks sellable products by full-text match (tsvector over nl/en/de names, brand, material,
 * descriptions) plus trigram similarity of the names, after the structured filters: a variant in
 * the colour (any language), a retail unit price at the quantity under the ceiling, a technique
 * whose name matches. The search document is aplt_product_search (migration 0510).
 */
export async function searchProducts(
  db: Kysely<ApltDatabase>,
  f: SearchFilters,
  colourWords: string[],
  techniquePattern: string,
  limit: number,
): Promise<SearchHit[]> {
  const quantity = f.quantity ?? 100;
  const terms = f.terms.trim();
  const words = terms.split(/\s+/).filter(Boolean);
  const tsq = words.length
    ? words
        .map((w) => `${w.replace(/[^\p{L}\p{N}]/gu, '')}:*`)
        .filter((w) => w !== ':*')
        .join(' | ')
    : '';
  const r = await sql<SearchHit>`
    WITH priced AS (
      SELECT p.*, s.search_text, s.search_vector,
        coalesce((SELECT x.price FROM aplt_product_prices x WHERE x.product_id = p.id AND x.variant_id IS NULL
        AND x.price_list = 'retail' AND x.min_quantity <= ${quantity} ORDER BY x.min_quantity DESC LIMIT 1), p.retail_price_100) AS unit_price
      FROM aplt_products p LEFT JOIN aplt_product_search s ON s.product_id = p.id WHERE p.is_sellable
    )
    SELECT p.id, p.sku, p.name_nl, p.name_en, p.name_de, p.unit_price::text AS unit_price, ${quantity}::int AS quantity,
      coalesce((SELECT array_agg(DISTINCT coalesce(v.color_name, v.color_code)) FROM aplt_product_variants v WHERE v.product_id = p.id), '{}') AS colours,
      coalesce((SELECT array_agg(DISTINCT t.name_nl) FROM aplt_product_techniques pt JOIN aplt_techniques t ON t.id = pt.technique_id
        WHERE pt.product_id = p.id), '{}') AS techniques,
      coalesce(${tsq ? sql`ts_rank(p.search_vector, to_tsquery('simple', aplt_f_unaccent(${tsq})))` : sql`0`}
        + ${terms ? sql`similarity(p.search_text, aplt_f_unaccent(${terms.toLowerCase()}))` : sql`0`}, 0)::float8 AS rank
    FROM priced p
    WHERE true
      ${tsq ? sql`AND (p.search_vector @@ to_tsquery('simple', aplt_f_unaccent(${tsq})) OR p.search_text % aplt_f_unaccent(${terms.toLowerCase()}))` : sql``}
      ${f.max_unit_price ? sql`AND p.unit_price <= ${f.max_unit_price}::numeric` : sql``}
      ${
        f.colour
          ? sql`AND (EXISTS (SELECT 1 FROM aplt_product_variants v WHERE v.product_id = p.id
          AND (lower(coalesce(v.color_name, '')) ~ ${`(^|[^a-z])(${colourWords.join('|')})`} OR lower(coalesce(v.color_group, '')) = ${f.colour}))
        OR p.search_text ~ ${`(^|[^a-z])(${colourWords.join('|')})([^a-z]|$)`})`
          : sql``
      }
      ${
        f.technique
          ? sql`AND EXISTS (SELECT 1 FROM aplt_product_techniques pt JOIN aplt_techniques t ON t.id = pt.technique_id
          WHERE pt.product_id = p.id AND (t.name_nl || ' ' || coalesce(t.name_en, '') || ' ' || coalesce(t.name_de, '')) ~* ${techniquePattern})`
          : sql``
      }
    ORDER BY rank DESC, p.unit_price NULLS LAST, p.id
    LIMIT ${limit}`.execute(db);
  return r.rows;
}
