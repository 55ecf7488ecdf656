import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { prefixPattern } from '../shared/paging';
import { prefixQuery } from '../store/store.repository';

export interface ProductFilter {
  q?: string | undefined;
  supplier_code?: string | undefined;
  sellable?: boolean | undefined;
  limit: number;
  offset: number;
}

/** A page of product ids (SKU matches first) and the count of all matches. */
export async function searchProducts(db: Kysely<ApltDatabase>, f: ProductFilter) {
  const conds = [sql`true`];
  if (f.supplier_code) conds.push(sql`p.supplier_code = ${f.supplier_code}`);
  if (f.sellable !== undefined) conds.push(sql`p.is_sellable = ${f.sellable}`);
  const search = f.q?.trim();
  // With a search, products whose own SKU starts with it come first.
  let skuFirst = sql``;
  if (search) {
    const sku = prefixPattern(search);
    skuFirst = sql`(p.sku ILIKE ${sku}) DESC,`;
    const tsq = prefixQuery(search.toLowerCase());
    conds.push(sql`(p.sku ILIKE ${sku}
      OR EXISTS (SELECT 1 FROM aplt_product_variants v WHERE v.product_id = p.id AND v.sku ILIKE ${sku})
      ${
        tsq
          ? sql`OR EXISTS (SELECT 1 FROM aplt_product_search s WHERE s.product_id = p.id
                 AND s.search_vector @@ to_tsquery('simple', aplt_f_unaccent(${tsq})))`
          : sql``
      })`);
  }
  const where = sql.join(conds, sql` AND `);
  const [page, total] = await Promise.all([
    sql<{ id: number }>`SELECT p.id FROM aplt_products p WHERE ${where}
      ORDER BY ${skuFirst} p.sku LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products p WHERE ${where}`.execute(db),
  ]);
  return { ids: page.rows.map((r) => r.id), count: total.rows[0]?.n ?? 0 };
}

export async function productsByIds(db: Kysely<ApltDatabase>, ids: number[]) {
  if (!ids.length) return [];
  return (
    await sql<{
      id: number;
      sku: string;
      name_nl: string;
      name_en: string | null;
      supplier_code: string;
      status: string;
      is_sellable: boolean;
      retail_price_100: string | null;
      min_order_quantity: number;
      image_url: string | null;
      vat_rate: string | null;
    }>`SELECT p.id, p.sku, p.name_nl, p.name_en, p.supplier_code::text AS supplier_code, p.status, p.is_sellable,
        p.retail_price_100::text AS retail_price_100, p.min_order_quantity, p.image_url, vc.rate::text AS vat_rate
      FROM aplt_products p LEFT JOIN aplt_vat_codes vc ON vc.id = p.vat_code_id
      WHERE p.id = ANY(${ids}::bigint[])`.execute(db)
  ).rows;
}

export async function priceTiers(db: Kysely<ApltDatabase>, ids: number[]) {
  if (!ids.length) return [];
  return (
    await sql<{ product_id: number; min_quantity: number; price: string }>`
      SELECT product_id, min_quantity, price::text AS price FROM aplt_product_prices
       WHERE product_id = ANY(${ids}::bigint[]) AND variant_id IS NULL AND price_list = 'retail'
         AND (valid_from IS NULL OR valid_from <= CURRENT_DATE) AND (valid_until IS NULL OR valid_until >= CURRENT_DATE)
       ORDER BY product_id, min_quantity`.execute(db)
  ).rows;
}

export async function variants(db: Kysely<ApltDatabase>, ids: number[]) {
  if (!ids.length) return [];
  return (
    await sql<{
      id: number;
      product_id: number;
      sku: string;
      color_code: string | null;
      color_name: string | null;
      hex: string | null;
      is_active: boolean;
      stock: number | null;
    }>`SELECT v.id, v.product_id, v.sku, v.color_code, v.color_name, v.hex::text AS hex, v.is_active, s.quantity AS stock
      FROM aplt_product_variants v LEFT JOIN aplt_stock s ON s.sku = v.sku
      WHERE v.product_id = ANY(${ids}::bigint[]) ORDER BY v.product_id, v.sku`.execute(db)
  ).rows;
}

export async function positionsWithTechniques(db: Kysely<ApltDatabase>, ids: number[]) {
  if (!ids.length) return [];
  return (
    await sql<{
      product_id: number;
      position_id: number;
      position_code: string;
      position_name: string | null;
      position_area: string | null;
      technique_id: number | null;
      technique_code: string | null;
      technique_name: string | null;
      pricing_type: string | null;
      max_colours: number | null;
      technique_area: string | null;
      is_default: boolean | null;
    }>`SELECT pp.product_id, pp.id AS position_id, pp.position_code, pp.position_name, pp.print_area AS position_area,
        t.id AS technique_id, t.code AS technique_code, t.name_nl AS technique_name, t.pricing_type,
        coalesce(pt.max_colours, t.max_colours) AS max_colours, pt.print_area AS technique_area, pt.is_default
      FROM aplt_print_positions pp
      LEFT JOIN aplt_product_techniques pt ON pt.print_position_id = pp.id
      LEFT JOIN aplt_techniques t ON t.id = pt.technique_id
      WHERE pp.product_id = ANY(${ids}::bigint[])
      ORDER BY pp.product_id, pp.sort_order, pp.position_code, pt.is_default DESC NULLS LAST, t.sort_order, t.code`.execute(
      db,
    )
  ).rows;
}
