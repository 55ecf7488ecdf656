import { type ApltDatabase, type CommerceDatabase, type Kysely, sql } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncCommerceCatalog } from '../src/sync/commerce-sync.service';

/**
 * The commerce sync is incremental: it compares a fingerprint of what it copies of each product
 * with the one it last wrote, and rewrites only the products that differ. Real aplt and commerce
 * databases; the tests read the commerce rows back (their updated_at shows what was rewritten).
 */
describe('commerce sync, incremental by fingerprint', () => {
  let apltDb: TestPgDatabase<ApltDatabase>;
  let commerceDb: TestPgDatabase<CommerceDatabase>;
  let aplt: Kysely<ApltDatabase>;
  let commerce: Kysely<CommerceDatabase>;

  beforeAll(async () => {
    [apltDb, commerceDb] = await Promise.all([
      createTestPgDatabase('aplt', 'sync_aplt'),
      createTestPgDatabase('commerce', 'sync_commerce'),
    ]);
    aplt = apltDb.db;
    commerce = commerceDb.db;
    await sql`INSERT INTO aplt_suppliers (code, name) VALUES ('01', 'Supplier 01')`.execute(aplt);
    await sql`INSERT INTO aplt_categories (code, slug, name_nl) VALUES ('pens', 'pennen', 'Pennen'), ('mugs', 'mokken', 'Mokken')`.execute(
      aplt,
    );
    for (const [i, sku] of ['P1', 'P2', 'P3'].entries()) {
      await sql`INSERT INTO aplt_products (sku, supplier_code, supplier_sku, name_nl, name_en, description_nl, retail_price_100)
        VALUES (${sku}, '01', ${sku}, ${`Product ${sku}`}, ${`Product ${sku} (en)`}, 'Omschrijving', ${0.5 + i})`.execute(
        aplt,
      );
      await sql`INSERT INTO aplt_product_variants (product_id, sku, color_name)
        SELECT id, sku || '.04', 'Blauw' FROM aplt_products WHERE sku = ${sku}`.execute(aplt);
      await sql`INSERT INTO aplt_product_prices (product_id, price_list, min_quantity, price)
        SELECT id, 'retail', q.m, q.p FROM aplt_products, (VALUES (1, 0.60), (100, 0.50)) q(m, p) WHERE sku = ${sku}`.execute(
        aplt,
      );
      await sql`INSERT INTO aplt_category_mappings (category_id, product_id, source)
        SELECT c.id, p.id, 'manual' FROM aplt_categories c, aplt_products p WHERE c.code = 'pens' AND p.sku = ${sku}`.execute(
        aplt,
      );
    }
  });

  afterAll(async () => {
    await Promise.all([apltDb?.drop(), commerceDb?.drop()]);
  });

  const stamps = async () =>
    new Map(
      (
        await sql<{
          external_id: string;
          updated_at: Date;
        }>`SELECT external_id, updated_at FROM product`.execute(commerce)
      ).rows.map((r) => [r.external_id, r.updated_at.getTime()]),
    );
  const tiers = async (sku: string) =>
    (
      await sql<{ min_quantity: number; amount: string }>`SELECT p.min_quantity, p.amount::text AS amount
        FROM price p JOIN product_variant v ON v.id = p.variant_id WHERE v.sku = ${sku} ORDER BY p.min_quantity`.execute(
        commerce,
      )
    ).rows.map((r) => [r.min_quantity, r.amount]);

  it('writes every product the first time, then nothing when nothing changed', async () => {
    const first = await syncCommerceCatalog(aplt, commerce);
    expect(first).toMatchObject({
      products: 3,
      inserted: 3,
      unchanged: 0,
      variants: 3,
      prices: 6,
      removed: 0,
    });
    expect(await tiers('P2.04')).toEqual([
      [1, '0.6000'],
      [100, '0.5000'],
    ]);
    const before = await stamps();

    const progress: Array<[number, number]> = [];
    const second = await syncCommerceCatalog(aplt, commerce, {
      onProgress: async (done, total) => void progress.push([done, total]),
    });
    expect(second).toMatchObject({ products: 0, inserted: 0, unchanged: 3, variants: 0, prices: 0 });
    expect(progress.at(-1)).toEqual([3, 3]);
    expect(await stamps()).toEqual(before);
  });

  it('rewrites only the product whose tiers, variants or categories changed', async () => {
    const before = await stamps();
    await sql`UPDATE aplt_product_prices x SET price = 0.55 FROM aplt_products p
      WHERE p.id = x.product_id AND p.sku = 'P2' AND x.min_quantity = 100`.execute(aplt);
    await sql`INSERT INTO aplt_category_mappings (category_id, product_id, source)
      SELECT c.id, p.id, 'manual' FROM aplt_categories c, aplt_products p WHERE c.code = 'mugs' AND p.sku = 'P3'`.execute(
      aplt,
    );
    const result = await syncCommerceCatalog(aplt, commerce);
    expect(result).toMatchObject({ products: 2, inserted: 0, unchanged: 1 });
    expect(await tiers('P2.04')).toEqual([
      [1, '0.6000'],
      [100, '0.5500'],
    ]);
    const links = await sql<{ code: string }>`SELECT c.external_id AS code FROM product_category_product l
      JOIN product p ON p.id = l.product_id JOIN product_category c ON c.id = l.product_category_id
      WHERE p.external_id = 'P3' ORDER BY 1`.execute(commerce);
    expect(links.rows.map((r) => r.code)).toEqual(['mugs', 'pens']);
    const after = await stamps();
    expect(after.get('P1')).toBe(before.get('P1'));
  });

  it('leaves an edit made in the shop alone until a full sync repairs it', async () => {
    await sql`UPDATE product SET title = 'Edited in the shop' WHERE external_id = 'P1'`.execute(commerce);
    expect(await syncCommerceCatalog(aplt, commerce)).toMatchObject({ products: 0, unchanged: 3 });
    const title = async () =>
      (await sql<{ title: string }>`SELECT title FROM product WHERE external_id = 'P1'`.execute(commerce))
        .rows[0]?.title;
    expect(await title()).toBe('Edited in the shop');

    const full = await syncCommerceCatalog(aplt, commerce, { full: true });
    // Every product is written again; rows equal to what the sync writes stay as they were.
    expect(full).toMatchObject({ products: 3, unchanged: 0 });
    expect(await title()).toBe('Product P1');
  });

  it('removes a product that stopped being sellable and brings it back when it is sellable again', async () => {
    await sql`UPDATE aplt_products SET retail_price_100 = NULL WHERE sku = 'P3'`.execute(aplt);
    expect(await syncCommerceCatalog(aplt, commerce)).toMatchObject({
      products: 0,
      unchanged: 2,
      removed: 1,
    });
    const p3 = async () =>
      (
        await sql<{ status: string; deleted: boolean }>`SELECT status, deleted_at IS NOT NULL AS deleted
          FROM product WHERE external_id = 'P3'`.execute(commerce)
      ).rows[0];
    expect(await p3()).toEqual({ status: 'draft', deleted: true });
    const kept = await sql`SELECT 1 FROM catalog_sync_fingerprint WHERE external_id = 'P3'`.execute(commerce);
    expect(kept.rows).toHaveLength(0);

    await sql`UPDATE aplt_products SET retail_price_100 = 2.5 WHERE sku = 'P3'`.execute(aplt);
    expect(await syncCommerceCatalog(aplt, commerce)).toMatchObject({
      products: 1,
      unchanged: 2,
      removed: 0,
    });
    expect(await p3()).toEqual({ status: 'published', deleted: false });
  });

  it('rewrites a product deleted by hand from the shop although its fingerprint is stored', async () => {
    await sql`DELETE FROM product WHERE external_id = 'P1'`.execute(commerce);
    expect(await syncCommerceCatalog(aplt, commerce)).toMatchObject({
      products: 1,
      inserted: 1,
      unchanged: 2,
    });
    expect(await tiers('P1.04')).toEqual([
      [1, '0.6000'],
      [100, '0.5000'],
    ]);
  });

  it('rolls back with the fingerprints when the sync fails half-way', async () => {
    await sql`UPDATE aplt_products SET name_nl = 'Nieuwe naam' WHERE sku = 'P2'`.execute(aplt);
    await expect(
      syncCommerceCatalog(aplt, commerce, {
        onProgress: async () => {
          throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    // Nothing was kept: the next sync still sees P2 as changed and writes it.
    expect(await syncCommerceCatalog(aplt, commerce)).toMatchObject({ products: 1, unchanged: 2 });
    const title = await sql<{ title: string }>`SELECT title FROM product WHERE external_id = 'P2'`.execute(
      commerce,
    );
    expect(title.rows[0]?.title).toBe('Nieuwe naam');
  });
});
