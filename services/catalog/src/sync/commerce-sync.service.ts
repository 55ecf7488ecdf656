import { type Kysely, newId, sql } from '@aplt/db';

const CHUNK = 500;

/**
 * Copies the sellable catalog of a tenant's aplt DB into its commerce catalog (Medusa-like):
 * product (external_id = aplt SKU, title in the tenant language, other languages in metadata),
 * product_variant per aplt variant (or one for the base SKU), tiered price rows, images and
 * categories. Upserts by external_id / sku, so a re-run changes only what changed; products
 * that stopped being sellable are soft-deleted. One transaction: a failed sync leaves the shop as it was.
 */
export async function syncCommerceCatalog(
  aplt: Kysely<any>,
  commerce: Kysely<any>,
  onProgress: (done: number, total: number) => Promise<void> = async () => {},
): Promise<{ products: number; variants: number; prices: number; categories: number; removed: number }> {
  const total = Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM aplt_products WHERE is_sellable`.execute(aplt))
      .rows[0]?.n ?? 0,
  );
  const out = { products: 0, variants: 0, prices: 0, categories: 0, removed: 0 };
  await commerce.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx); // many small statements: JIT compile time would dominate
    const cats = (
      await sql<any>`SELECT c.code, c.slug, c.name_nl, c.name_en, c.name_de, c.description_nl, c.sort_order, c.is_active, p.code AS parent_code
        FROM aplt_categories c LEFT JOIN aplt_categories p ON p.id = c.parent_id ORDER BY c.parent_id NULLS FIRST, c.id`.execute(
        aplt,
      )
    ).rows;
    for (const c of cats) {
      await sql`INSERT INTO product_category (id, name, description, handle, is_active, rank, external_id, metadata)
        VALUES (${newId('pcat')}, ${c.name_nl}, ${c.description_nl ?? ''}, ${c.slug}, ${c.is_active}, ${c.sort_order}, ${c.code},
          ${JSON.stringify({ name_en: c.name_en, name_de: c.name_de })}::jsonb)
        ON CONFLICT (external_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, handle = EXCLUDED.handle,
          is_active = EXCLUDED.is_active, rank = EXCLUDED.rank, metadata = EXCLUDED.metadata, deleted_at = NULL`.execute(
        trx,
      );
    }
    for (const c of cats) {
      await sql`UPDATE product_category SET parent_category_id = (SELECT id FROM product_category WHERE external_id = ${c.parent_code ?? null})
        WHERE external_id = ${c.code}`.execute(trx);
    }
    out.categories = cats.length;
    const seen: string[] = [];
    let lastId = 0;
    while (true) {
      const products = (
        await sql<any>`SELECT p.id, p.sku, p.name_nl, p.name_en, p.name_de, p.description_nl, p.description_en, p.description_de,
            p.image_url, p.images, p.brand, p.retail_price_100::text AS retail_price_100,
            coalesce((SELECT json_agg(json_build_object('sku', v.sku, 'title', coalesce(v.color_name, v.sku), 'gtin', v.gtin) ORDER BY v.id)
              FROM aplt_product_variants v WHERE v.product_id = p.id AND v.is_active), '[]') AS variants,
            coalesce((SELECT json_agg(json_build_object('min', x.min_quantity, 'price', x.price::text) ORDER BY x.min_quantity)
              FROM aplt_product_prices x WHERE x.product_id = p.id AND x.variant_id IS NULL AND x.price_list = 'retail'), '[]') AS tiers,
            coalesce((SELECT json_agg(c.code) FROM aplt_category_mappings m JOIN aplt_categories c ON c.id = m.category_id
              WHERE m.product_id = p.id), '[]') AS categories
          FROM aplt_products p WHERE p.is_sellable AND p.id > ${lastId} ORDER BY p.id LIMIT ${CHUNK}`.execute(
          aplt,
        )
      ).rows;
      if (products.length === 0) break;
      lastId = Number(products[products.length - 1].id);
      for (const p of products) {
        const handle = p.sku.toLowerCase().replace(/[^a-z0-9]+/g, '-');
        const prod = await sql<{
          id: string;
        }>`INSERT INTO product (id, title, handle, description, status, thumbnail, external_id, metadata)
          VALUES (${newId('prod')}, ${p.name_nl}, ${handle}, ${p.description_nl}, 'published', ${p.image_url}, ${p.sku},
            ${JSON.stringify({ title_en: p.name_en, title_de: p.name_de, description_en: p.description_en, description_de: p.description_de, brand: p.brand, retail_price_100: p.retail_price_100 })}::jsonb)
          ON CONFLICT (external_id) DO UPDATE SET title = EXCLUDED.title, handle = EXCLUDED.handle, description = EXCLUDED.description,
            status = 'published', thumbnail = EXCLUDED.thumbnail, metadata = EXCLUDED.metadata, deleted_at = NULL
          RETURNING id`.execute(trx);
        const productId = prod.rows[0]?.id as string;
        seen.push(p.sku);
        const variants: Array<{ sku: string; title: string; gtin: string | null }> =
          p.variants.length > 0 ? p.variants : [{ sku: p.sku, title: p.name_nl, gtin: null }];
        const tiers: Array<{ min: number; price: string }> =
          p.tiers.length > 0 ? p.tiers : [{ min: 1, price: p.retail_price_100 }];
        for (const [rank, v] of variants.entries()) {
          const vr = await sql<{
            id: string;
          }>`INSERT INTO product_variant (id, product_id, title, sku, ean, variant_rank)
            VALUES (${newId('variant')}, ${productId}, ${v.title}, ${v.sku}, ${v.gtin}, ${rank})
            ON CONFLICT (sku) DO UPDATE SET product_id = EXCLUDED.product_id, title = EXCLUDED.title, ean = EXCLUDED.ean,
              variant_rank = EXCLUDED.variant_rank, deleted_at = NULL
            RETURNING id`.execute(trx);
          const variantId = vr.rows[0]?.id as string;
          await sql`DELETE FROM price WHERE variant_id = ${variantId} AND min_quantity <> ALL(${tiers.map((t) => t.min)}::int[])`.execute(
            trx,
          );
          for (const [i, t] of tiers.entries()) {
            const next = tiers[i + 1];
            await sql`INSERT INTO price (id, variant_id, currency_code, amount, min_quantity, max_quantity)
              VALUES (${newId('price')}, ${variantId}, 'eur', ${t.price}::numeric, ${t.min}, ${next ? next.min - 1 : null})
              ON CONFLICT (variant_id, currency_code, min_quantity) DO UPDATE SET amount = EXCLUDED.amount,
                max_quantity = EXCLUDED.max_quantity, deleted_at = NULL`.execute(trx);
            out.prices++;
          }
          out.variants++;
        }
        await sql`DELETE FROM product_category_product WHERE product_id = ${productId}`.execute(trx);
        if (p.categories.length > 0) {
          await sql`INSERT INTO product_category_product (product_id, product_category_id)
            SELECT ${productId}, id FROM product_category WHERE external_id = ANY(${p.categories}::text[]) ON CONFLICT DO NOTHING`.execute(
            trx,
          );
        }
        const images: string[] = Array.isArray(p.images) ? p.images : [];
        for (const [rank, url] of images.entries()) {
          await sql`INSERT INTO image (id, product_id, url, rank) VALUES (${newId('img')}, ${productId}, ${url}, ${rank})
            ON CONFLICT (product_id, url) DO UPDATE SET rank = EXCLUDED.rank, deleted_at = NULL`.execute(trx);
        }
        out.products++;
      }
      await onProgress(out.products, total);
    }
    const removed = await sql`UPDATE product SET deleted_at = now(), status = 'draft'
      WHERE external_id IS NOT NULL AND deleted_at IS NULL AND external_id <> ALL(${seen}::text[])`.execute(
      trx,
    );
    out.removed = Number(removed.numAffectedRows ?? 0);
  });
  return out;
}
