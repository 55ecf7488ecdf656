import {
  type ApltDatabase,
  type CommerceDatabase,
  type Kysely,
  newId,
  sql,
  type Transaction,
} from '@aplt/db';

/**
 * The SQL of the commerce sync (commerce-sync.service.ts): reading the sellable catalog and its
 * fingerprints from a tenant's aplt DB, and writing it set-based into its commerce DB, inside the
 * sync's one transaction (`trx`).
 */

/** Fingerprints compared per round trip. */
const SCAN = 10_000;

export interface SourceProduct {
  id: number;
  sku: string;
  fingerprint: string;
  name_nl: string;
  name_en: string | null;
  name_de: string | null;
  description_nl: string | null;
  description_en: string | null;
  description_de: string | null;
  image_url: string | null;
  images: unknown;
  brand: string | null;
  retail_price_100: string;
  variants: Array<{ sku: string; title: string; gtin: string | null }>;
  tiers: Array<{ min: number; price: string }>;
  categories: string[];
}

export async function countSellable(aplt: Kysely<ApltDatabase>): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM aplt_products WHERE is_sellable`.execute(aplt);
  return Number(rows[0]?.n ?? 0);
}

/** Settings and the table of SKUs seen in this run, both ending with the transaction. */
export async function beginSync(trx: Transaction<CommerceDatabase>): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(trx); // statements over fresh arrays: JIT compile time would dominate
  await sql`CREATE TEMP TABLE commerce_sync_seen (sku text PRIMARY KEY) ON COMMIT DROP`.execute(trx);
}

export async function markSeen(trx: Transaction<CommerceDatabase>, skus: string[]): Promise<void> {
  await sql`INSERT INTO commerce_sync_seen SELECT unnest(${skus}::text[]) ON CONFLICT DO NOTHING`.execute(
    trx,
  );
}

/** Soft-deletes the shop's products this run did not see (no longer sellable), and forgets their fingerprints. */
export async function removeUnseen(trx: Transaction<CommerceDatabase>): Promise<number> {
  const removed = await sql`UPDATE product p SET deleted_at = now(), status = 'draft'
    WHERE p.external_id IS NOT NULL AND p.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM commerce_sync_seen s WHERE s.sku = p.external_id)`.execute(trx);
  await sql`DELETE FROM catalog_sync_fingerprint f
    WHERE NOT EXISTS (SELECT 1 FROM commerce_sync_seen s WHERE s.sku = f.external_id)`.execute(trx);
  return Number(removed.numAffectedRows ?? 0);
}

export async function syncCategories(
  aplt: Kysely<ApltDatabase>,
  trx: Transaction<CommerceDatabase>,
): Promise<number> {
  const cats = (
    await sql<{
      code: string;
      slug: string;
      name_nl: string;
      name_en: string | null;
      name_de: string | null;
      description_nl: string | null;
      sort_order: number;
      is_active: boolean;
      parent_code: string | null;
    }>`SELECT c.code, c.slug, c.name_nl, c.name_en, c.name_de, c.description_nl, c.sort_order, c.is_active,
        p.code AS parent_code
      FROM aplt_categories c LEFT JOIN aplt_categories p ON p.id = c.parent_id ORDER BY c.parent_id NULLS FIRST, c.id`.execute(
      aplt,
    )
  ).rows;
  if (cats.length === 0) return 0;
  const col = <T>(f: (c: (typeof cats)[number]) => T) => cats.map(f);
  await sql`INSERT INTO product_category (id, name, description, handle, is_active, rank, external_id, metadata)
    SELECT * FROM unnest(${col(() => newId('pcat'))}::text[], ${col((c) => c.name_nl)}::text[],
      ${col((c) => c.description_nl ?? '')}::text[], ${col((c) => c.slug)}::text[], ${col((c) => c.is_active)}::boolean[],
      ${col((c) => c.sort_order)}::int[], ${col((c) => c.code)}::text[],
      ${col((c) => JSON.stringify({ name_en: c.name_en, name_de: c.name_de }))}::jsonb[])
    ON CONFLICT (external_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, handle = EXCLUDED.handle,
      is_active = EXCLUDED.is_active, rank = EXCLUDED.rank, metadata = EXCLUDED.metadata, deleted_at = NULL`.execute(
    trx,
  );
  await sql`UPDATE product_category c SET parent_category_id = p.id
    FROM unnest(${col((c) => c.code)}::text[], ${col((c) => c.parent_code ?? null)}::text[]) AS x(code, parent_code)
    LEFT JOIN product_category p ON p.external_id = x.parent_code
    WHERE c.external_id = x.code AND c.parent_category_id IS DISTINCT FROM p.id`.execute(trx);
  return cats.length;
}

/**
 * What the sync copies of a product p, and its fingerprint: the one definition both the
 * comparison and the full read use, so a product is rewritten exactly when something the sync
 * writes of it changed.
 */
const source = sql`aplt_products p CROSS JOIN LATERAL (SELECT
    coalesce((SELECT json_agg(json_build_object('sku', v.sku, 'title', coalesce(v.color_name, v.sku), 'gtin', v.gtin) ORDER BY v.id)
      FROM aplt_product_variants v WHERE v.product_id = p.id AND v.is_active), '[]') AS variants,
    coalesce((SELECT json_agg(json_build_object('min', x.min_quantity, 'price', x.price::text) ORDER BY x.min_quantity)
      FROM aplt_product_prices x WHERE x.product_id = p.id AND x.variant_id IS NULL AND x.price_list = 'retail'), '[]') AS tiers,
    coalesce((SELECT json_agg(c.code ORDER BY c.code) FROM aplt_category_mappings m JOIN aplt_categories c ON c.id = m.category_id
      WHERE m.product_id = p.id), '[]') AS categories) j`;
const fingerprint = sql`md5(json_build_array(p.sku, p.name_nl, p.name_en, p.name_de, p.description_nl, p.description_en,
    p.description_de, p.image_url, p.images, p.brand, p.retail_price_100::text, j.variants, j.tiers, j.categories)::text)::uuid`;

export async function scanSellable(
  aplt: Kysely<ApltDatabase>,
  afterId: number,
): Promise<Array<{ id: number; sku: string }>> {
  return (
    await sql<{ id: number; sku: string }>`SELECT p.id, p.sku FROM aplt_products p
      WHERE p.is_sellable AND p.id > ${afterId} ORDER BY p.id LIMIT ${SCAN}`.execute(aplt)
  ).rows;
}

export async function fingerprints(aplt: Kysely<ApltDatabase>, ids: number[]): Promise<Map<number, string>> {
  const rows = (
    await sql<{ id: number; fingerprint: string }>`SELECT p.id, ${fingerprint} AS fingerprint
      FROM ${source} WHERE p.id = ANY(${ids}::bigint[])`.execute(aplt)
  ).rows;
  return new Map(rows.map((r) => [r.id, r.fingerprint]));
}

export async function readProducts(aplt: Kysely<ApltDatabase>, ids: number[]): Promise<SourceProduct[]> {
  // Still sellable now? A product that stopped being sellable since the scan is left out here
  // (and soft-deleted by the next sync).
  return (
    await sql<SourceProduct>`SELECT p.id, p.sku, ${fingerprint} AS fingerprint, p.name_nl, p.name_en, p.name_de,
        p.description_nl, p.description_en, p.description_de, p.image_url, p.images, p.brand,
        p.retail_price_100::text AS retail_price_100, j.variants, j.tiers, j.categories
      FROM ${source} WHERE p.is_sellable AND p.id = ANY(${ids}::bigint[]) ORDER BY p.id`.execute(aplt)
  ).rows;
}

/** The fingerprints last written for these products, if they are still in the shop. */
export async function storedFingerprints(
  trx: Transaction<CommerceDatabase>,
  skus: string[],
): Promise<Map<string, string>> {
  const rows = (
    await sql<{ external_id: string; fingerprint: string }>`
      SELECT f.external_id, f.fingerprint FROM catalog_sync_fingerprint f
      JOIN product p ON p.external_id = f.external_id AND p.deleted_at IS NULL
      WHERE f.external_id = ANY(${skus}::text[])`.execute(trx)
  ).rows;
  return new Map(rows.map((r) => [r.external_id, r.fingerprint]));
}

/** One chunk of products into the commerce tables: one statement per table. */
export async function writeChunk(
  trx: Transaction<CommerceDatabase>,
  products: SourceProduct[],
): Promise<{ inserted: number; variants: number; prices: number }> {
  const col = <T>(f: (p: SourceProduct) => T) => products.map(f);
  const upserted = await sql<{ inserted: number }>`
    WITH w AS (
    INSERT INTO product AS t (id, title, handle, description, status, thumbnail, external_id, metadata)
    SELECT x.id, x.title, x.handle, x.description, 'published', x.thumbnail, x.external_id, x.metadata
    FROM unnest(${col(() => newId('prod'))}::text[], ${col((p) => p.name_nl)}::text[],
      ${col((p) => p.sku.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}::text[], ${col((p) => p.description_nl)}::text[],
      ${col((p) => p.image_url)}::text[], ${col((p) => p.sku)}::text[],
      ${col((p) =>
        JSON.stringify({
          title_en: p.name_en,
          title_de: p.name_de,
          description_en: p.description_en,
          description_de: p.description_de,
          brand: p.brand,
          retail_price_100: p.retail_price_100,
        }),
      )}::jsonb[]) AS x(id, title, handle, description, thumbnail, external_id, metadata)
    ON CONFLICT (external_id) DO UPDATE SET title = EXCLUDED.title, handle = EXCLUDED.handle,
      description = EXCLUDED.description, status = 'published', thumbnail = EXCLUDED.thumbnail,
      metadata = EXCLUDED.metadata, deleted_at = NULL
    WHERE (t.title, t.handle, t.description, t.status, t.thumbnail, t.metadata, t.deleted_at)
      IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.handle, EXCLUDED.description, 'published', EXCLUDED.thumbnail,
        EXCLUDED.metadata, NULL::timestamptz)
    RETURNING (xmax = 0) AS inserted)
    SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM w`.execute(trx);

  // A product without aplt variants is sold as one variant with its base SKU.
  const variants = products.flatMap((p) =>
    (p.variants.length > 0 ? p.variants : [{ sku: p.sku, title: p.name_nl, gtin: null }]).map((v, rank) => ({
      product: p.sku,
      rank,
      ...v,
    })),
  );
  const vc = <T>(f: (v: (typeof variants)[number]) => T) => variants.map(f);
  await sql`
    INSERT INTO product_variant AS t (id, product_id, title, sku, ean, variant_rank)
    SELECT x.id, p.id, x.title, x.sku, x.ean, x.rank
    FROM unnest(${vc(() => newId('variant'))}::text[], ${vc((v) => v.product)}::text[], ${vc((v) => v.title)}::text[],
      ${vc((v) => v.sku)}::text[], ${vc((v) => v.gtin)}::text[], ${vc((v) => v.rank)}::int[])
      AS x(id, product_sku, title, sku, ean, rank)
    JOIN product p ON p.external_id = x.product_sku
    ON CONFLICT (sku) DO UPDATE SET product_id = EXCLUDED.product_id, title = EXCLUDED.title, ean = EXCLUDED.ean,
      variant_rank = EXCLUDED.variant_rank, deleted_at = NULL
    WHERE (t.product_id, t.title, t.ean, t.variant_rank, t.deleted_at)
      IS DISTINCT FROM (EXCLUDED.product_id, EXCLUDED.title, EXCLUDED.ean, EXCLUDED.variant_rank, NULL::timestamptz)`.execute(
    trx,
  );

  // Every variant of a product gets the product's retail tiers (or retail_price_100 from 1 up).
  const tiersOf = (p: SourceProduct) =>
    p.tiers.length > 0 ? p.tiers : [{ min: 1, price: p.retail_price_100 }];
  const bySku = new Map(products.map((p) => [p.sku, tiersOf(p)]));
  const prices = variants.flatMap((v) => {
    const tiers = bySku.get(v.product) ?? [];
    return tiers.map((t, i) => ({
      sku: v.sku,
      min: t.min,
      max: tiers[i + 1] ? tiers[i + 1]!.min - 1 : null,
      amount: t.price,
    }));
  });
  const pc = <T>(f: (x: (typeof prices)[number]) => T) => prices.map(f);
  // Tiers the product no longer has go first, then the rest is upserted.
  await sql`
    DELETE FROM price pr USING product_variant v
    WHERE pr.variant_id = v.id AND v.sku = ANY(${vc((v) => v.sku)}::text[])
      AND NOT EXISTS (SELECT 1 FROM unnest(${pc((x) => x.sku)}::text[], ${pc((x) => x.min)}::int[]) AS k(sku, min)
        WHERE k.sku = v.sku AND k.min = pr.min_quantity)`.execute(trx);
  await sql`
    INSERT INTO price AS t (id, variant_id, currency_code, amount, min_quantity, max_quantity)
    SELECT x.id, v.id, 'eur', x.amount, x.min, x.max
    FROM unnest(${pc(() => newId('price'))}::text[], ${pc((x) => x.sku)}::text[], ${pc((x) => x.amount)}::numeric[],
      ${pc((x) => x.min)}::int[], ${pc((x) => x.max)}::int[]) AS x(id, sku, amount, min, max)
    JOIN product_variant v ON v.sku = x.sku
    ON CONFLICT (variant_id, currency_code, min_quantity) DO UPDATE SET amount = EXCLUDED.amount,
      max_quantity = EXCLUDED.max_quantity, deleted_at = NULL
    WHERE (t.amount, t.max_quantity, t.deleted_at) IS DISTINCT FROM (EXCLUDED.amount, EXCLUDED.max_quantity, NULL::timestamptz)`.execute(
    trx,
  );

  // Category links: exactly the product's categories (links gone from aplt are removed).
  const links = products.flatMap((p) => p.categories.map((code) => ({ product: p.sku, code })));
  await sql`
    DELETE FROM product_category_product l USING product p
    WHERE l.product_id = p.id AND p.external_id = ANY(${col((p) => p.sku)}::text[])
      AND NOT EXISTS (SELECT 1 FROM unnest(${links.map((l) => l.product)}::text[], ${links.map((l) => l.code)}::text[]) AS k(sku, code)
        JOIN product_category c ON c.external_id = k.code WHERE k.sku = p.external_id AND c.id = l.product_category_id)`.execute(
    trx,
  );
  if (links.length > 0) {
    await sql`
      INSERT INTO product_category_product (product_id, product_category_id)
      SELECT p.id, c.id FROM unnest(${links.map((l) => l.product)}::text[], ${links.map((l) => l.code)}::text[]) AS k(sku, code)
      JOIN product p ON p.external_id = k.sku JOIN product_category c ON c.external_id = k.code
      ON CONFLICT DO NOTHING`.execute(trx);
  }

  const images = products.flatMap((p) =>
    // One row per URL (the unique key): a repeated URL keeps its first rank.
    [...new Set(Array.isArray(p.images) ? (p.images as string[]) : [])].map((url, rank) => ({
      product: p.sku,
      url,
      rank,
    })),
  );
  if (images.length > 0) {
    const ic = <T>(f: (x: (typeof images)[number]) => T) => images.map(f);
    await sql`
      INSERT INTO image AS t (id, product_id, url, rank)
      SELECT x.id, p.id, x.url, x.rank
      FROM unnest(${ic(() => newId('img'))}::text[], ${ic((x) => x.product)}::text[], ${ic((x) => x.url)}::text[],
        ${ic((x) => x.rank)}::int[]) AS x(id, sku, url, rank)
      JOIN product p ON p.external_id = x.sku
      ON CONFLICT (product_id, url) DO UPDATE SET rank = EXCLUDED.rank, deleted_at = NULL
      WHERE (t.rank, t.deleted_at) IS DISTINCT FROM (EXCLUDED.rank, NULL::timestamptz)`.execute(trx);
  }
  await sql`INSERT INTO catalog_sync_fingerprint AS f (external_id, fingerprint)
    SELECT * FROM unnest(${col((p) => p.sku)}::text[], ${col((p) => p.fingerprint)}::uuid[])
    ON CONFLICT (external_id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, synced_at = now()`.execute(
    trx,
  );
  return { inserted: upserted.rows[0]?.inserted ?? 0, variants: variants.length, prices: prices.length };
}
