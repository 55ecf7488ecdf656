import { type Kysely, sql } from '@aplt/db';

export type Lang = 'nl' | 'en' | 'de';

export interface StoreProductQuery {
  q?: string | undefined;
  category?: string | undefined;
  /** One item number exactly (the storefront's product page). */
  sku?: string | undefined;
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
/** Words of a search as a prefix AND query for to_tsquery: "balpen bla" -> "balpen:* & bla:*". */
export function prefixQuery(search: string): string {
  return search
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .map((w) => `${w}:*`)
    .join(' & ');
}

export async function listStoreProducts(db: Kysely<any>, q: StoreProductQuery) {
  const search = q.q?.trim() ? q.q.trim().toLowerCase() : null;
  const tsq = search ? prefixQuery(search) : '';
  // Full-text (GIN, word prefixes) first; only a search that finds nothing that way falls back
  // to trigram similarity, which tolerates typos but has to recheck many candidates.
  let fuzzy = false;
  if (search && tsq) {
    const hit = await sql`SELECT 1 FROM aplt_product_search s JOIN aplt_products p ON p.id = s.product_id
      WHERE p.is_sellable AND s.search_vector @@ to_tsquery('simple', aplt_f_unaccent(${tsq})) LIMIT 1`.execute(
      db,
    );
    fuzzy = hit.rows.length === 0;
  } else if (search) fuzzy = true;
  const searchCond = !search
    ? sql``
    : fuzzy
      ? sql`AND s.search_text % aplt_f_unaccent(${search})`
      : sql`AND s.search_vector @@ to_tsquery('simple', aplt_f_unaccent(${tsq}))`;
  const searchOrder = !search
    ? sql``
    : fuzzy
      ? sql`similarity(s.search_text, aplt_f_unaccent(${search})) DESC,`
      : sql`ts_rank(s.search_vector, to_tsquery('simple', aplt_f_unaccent(${tsq}))) DESC,`;
  // The search document lives beside the product (aplt_product_search, migration 0510).
  const from = search
    ? sql`aplt_products p JOIN aplt_product_search s ON s.product_id = p.id`
    : sql`aplt_products p`;
  // A category (code or slug) stands for itself and its direct children; resolved to ids once.
  let categoryIds: number[] | undefined;
  if (q.category) {
    const cats = await sql<{ id: number }>`
      SELECT c.id FROM aplt_categories c
      WHERE c.code = ${q.category} OR c.slug = ${q.category}
        OR c.parent_id IN (SELECT id FROM aplt_categories WHERE code = ${q.category} OR slug = ${q.category})`.execute(
      db,
    );
    categoryIds = cats.rows.map((c) => c.id);
    if (categoryIds.length === 0) return { rows: [], count: 0 };
  }
  const where = sql`p.is_sellable ${searchCond}
      ${q.sku ? sql`AND p.sku = ${q.sku}` : sql``}
      ${
        categoryIds
          ? sql`AND p.id IN (SELECT m.product_id FROM aplt_category_mappings m WHERE m.category_id = ANY(${categoryIds}::bigint[]))`
          : sql``
      }`;
  // The page is chosen on ids first (a simple, quickly planned query); the count is a separate scan.
  const [page, count] = await Promise.all([
    sql<{ id: number }>`SELECT p.id FROM ${from} WHERE ${where}
      ORDER BY ${searchOrder} p.id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`.execute(db),
  ]);
  // Details for the page only, through a plpgsql function whose plan stays cached per connection.
  const rows =
    page.rows.length === 0
      ? { rows: [] }
      : await sql<any>`SELECT * FROM aplt_store_product_details(${page.rows.map((r) => r.id)}::bigint[], ${q.lang}, ${q.quantity})`.execute(
          db,
        );
  return { rows: rows.rows, count: count.rows[0]?.n ?? 0 };
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
