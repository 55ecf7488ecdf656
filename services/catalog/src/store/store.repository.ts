import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

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

/** A row of aplt_store_product_details() (migration 0502). */
export interface StoreProductRow {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  brand: string | null;
  material: string | null;
  image_url: string | null;
  /** Never null here: a product without one is not sellable. */
  retail_price_100: string;
  supplier_code: string;
  unit_price: string;
  variants: Array<{
    sku: string;
    color_code: string | null;
    color_name: string | null;
    hex: string | null;
    stock: number | null;
  }>;
  categories: string[];
}

export async function listStoreProducts(db: Kysely<ApltDatabase>, q: StoreProductQuery) {
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
      : await sql<StoreProductRow>`SELECT * FROM aplt_store_product_details(${page.rows.map((r) => r.id)}::bigint[], ${q.lang}, ${q.quantity})`.execute(
          db,
        );
  return { rows: rows.rows, count: count.rows[0]?.n ?? 0 };
}

export async function listCategories(db: Kysely<ApltDatabase>, lang: Lang) {
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

export interface StorePrintTechnique {
  code: string;
  name: string;
  pricing_type: string;
  max_colours: number | null;
  full_colour: boolean;
  positions: Array<{
    code: string;
    name: string | null;
    print_area: string | null;
    max_colours: number | null;
  }>;
  /** Setup cost (cliché) of the technique for this product, and whether it counts per colour. */
  setup_cost: string | null;
  setup_per_colour: boolean;
  /** The scale: price per unit from `min_quantity`, for `colours` (null: any number) and an optional print-area range (cm2). */
  prices: Array<{
    min_quantity: number;
    colours: number | null;
    price_per_unit: string;
    next_colour_price: string | null;
    area_from: string | null;
    area_to: string | null;
  }>;
}

/**
 * The print techniques a product offers (aplt_product_techniques), each with its positions and
 * print sizes, its setup cost (the product's own row first) and its price scale: what the product
 * page shows, priced by the same tables the quotation's line pricing reads. Three statements.
 */
export async function productPrintTechniques(
  db: Kysely<ApltDatabase>,
  productId: number,
  lang: Lang,
): Promise<StorePrintTechnique[]> {
  const name = { nl: sql.ref('t.name_nl'), en: sql.ref('t.name_en'), de: sql.ref('t.name_de') }[lang];
  const links = await sql<{
    technique_id: number;
    code: string;
    name: string;
    pricing_type: string;
    technique_max_colours: number | null;
    full_colour: boolean;
    position_code: string;
    position_name: string | null;
    print_area: string | null;
    max_colours: number | null;
  }>`
    SELECT t.id::int AS technique_id, t.code, coalesce(${name}, t.name_nl) AS name, t.pricing_type,
           t.max_colours AS technique_max_colours, t.full_colour,
           pp.position_code, pp.position_name, coalesce(pt.print_area, pp.print_area) AS print_area,
           coalesce(pt.max_colours, t.max_colours) AS max_colours
    FROM aplt_product_techniques pt
    JOIN aplt_techniques t ON t.id = pt.technique_id AND t.is_active
    JOIN aplt_print_positions pp ON pp.id = pt.print_position_id
    WHERE pt.product_id = ${productId}
    ORDER BY pt.is_default DESC, t.sort_order, t.code, pp.sort_order, pp.position_code`.execute(db);
  if (links.rows.length === 0) return [];
  const ids = [...new Set(links.rows.map((l) => l.technique_id))];
  const [prices, setups] = await Promise.all([
    sql<{
      technique_id: number;
      min_quantity: number;
      colours: number | null;
      price_per_unit: string;
      next_colour_price: string | null;
      area_from: string | null;
      area_to: string | null;
      setup_cost: string;
    }>`
      SELECT technique_id::int, min_quantity, colours, price_per_unit::text, next_colour_price::text,
             area_from::text, area_to::text, setup_cost::text
      FROM aplt_technique_pricing
      WHERE technique_id = ANY(${ids}::bigint[])
        AND (valid_from IS NULL OR valid_from <= CURRENT_DATE) AND (valid_until IS NULL OR valid_until >= CURRENT_DATE)
      ORDER BY technique_id, colours NULLS FIRST, area_from NULLS FIRST, min_quantity`.execute(db),
    sql<{ technique_id: number; setup_cost: string; per_colour: boolean }>`
      SELECT DISTINCT ON (technique_id) technique_id::int, setup_cost::text, per_colour
      FROM aplt_opstartkosten
      WHERE technique_id = ANY(${ids}::bigint[]) AND is_active AND (product_id IS NULL OR product_id = ${productId})
      ORDER BY technique_id, product_id IS NULL`.execute(db),
  ]);
  const out = new Map<number, StorePrintTechnique>();
  for (const l of links.rows) {
    let t = out.get(l.technique_id);
    if (!t) {
      const setup = setups.rows.find((s) => s.technique_id === l.technique_id);
      const scale = prices.rows.filter((p) => p.technique_id === l.technique_id);
      // Without a setup row, the supplier's setup cost on the scale (the same for every row in practice).
      const scaleSetup = scale.find((p) => Number(p.setup_cost) > 0)?.setup_cost ?? null;
      t = {
        code: l.code,
        name: l.name,
        pricing_type: l.pricing_type,
        max_colours: l.technique_max_colours,
        full_colour: l.full_colour,
        positions: [],
        setup_cost: setup?.setup_cost ?? scaleSetup,
        setup_per_colour: setup?.per_colour ?? false,
        prices: scale.map(({ technique_id: _t, setup_cost: _s, ...p }) => p),
      };
      out.set(l.technique_id, t);
    }
    t.positions.push({
      code: l.position_code,
      name: l.position_name,
      print_area: l.print_area,
      max_colours: l.max_colours,
    });
  }
  return [...out.values()];
}
