import { type ApltDatabase, type Kysely, sql, type Transaction } from '@aplt/db';

/**
 * Brings aplt_product_search up to date with aplt_products in one set-based statement (the SQL
 * function of migration 0510): products that are new or whose row changed since they were
 * indexed; the document itself is recomputed only where its source text changed. Every writer of
 * products calls it after its batch, in its own transaction, so what it wrote is findable when
 * that transaction commits.
 */
export async function refreshProductSearch(
  db: Kysely<ApltDatabase>,
): Promise<{ indexed: number; ms: number }> {
  const start = performance.now();
  const res = await sql<{ n: number }>`SELECT aplt_refresh_product_search() AS n`.execute(db);
  return { indexed: res.rows[0]?.n ?? 0, ms: Math.round(performance.now() - start) };
}

/**
 * The refresh of aplt_refresh_product_search() for some products only (their ids): those new or
 * changed since they were indexed get their document, computed again only where the source text
 * changed. A connector calls it for the products each chunk wrote, so the documents are computed
 * on the server while the rest of the feed is still being parsed instead of all at the end; the
 * full refresh at the end of the run then finds nothing left of them. The products are looked up
 * by id (index lookups, whatever the tables' statistics say) rather than by scanning the growing
 * table once per chunk. It takes the same transaction-level lock as the full refresh (refreshes
 * never cross). Returns how many documents it (re)computed.
 */
export async function refreshProductSearchOf(
  trx: Transaction<ApltDatabase>,
  productIds: ReadonlyArray<string | number>,
): Promise<number> {
  if (productIds.length === 0) return 0;
  await sql`SELECT pg_advisory_xact_lock('aplt_product_search'::regclass::oid::bigint)`.execute(trx);
  const res = await sql<{ n: number }>`
    WITH c AS (
      SELECT p.id, p.updated_at, x.source_md5 AS old_md5, x.search_text AS old_text, x.search_vector AS old_vector,
        p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material, p.description_nl, p.description_en, p.description_de,
        aplt_product_search_source(p.sku, p.name_nl, p.name_en, p.name_de, p.brand, p.material, p.description_nl,
          p.description_en, p.description_de) AS md5
      FROM unnest(${productIds}::bigint[]) AS i(id)
      JOIN aplt_products p ON p.id = i.id
      LEFT JOIN aplt_product_search x ON x.product_id = i.id
      WHERE x.product_id IS NULL OR x.source_updated_at IS DISTINCT FROM p.updated_at
    ), written AS (
      INSERT INTO aplt_product_search AS s (product_id, source_updated_at, source_md5, search_text, search_vector)
      SELECT c.id, c.updated_at, c.md5,
        CASE WHEN c.old_md5 = c.md5 THEN c.old_text
          ELSE aplt_product_search_text(c.sku, c.name_nl, c.name_en, c.name_de) END,
        CASE WHEN c.old_md5 = c.md5 THEN c.old_vector
          ELSE aplt_product_search_vector(c.sku, c.name_nl, c.name_en, c.name_de, c.brand, c.material,
            c.description_nl, c.description_en, c.description_de) END
      FROM c ORDER BY c.id
      ON CONFLICT (product_id) DO UPDATE SET source_updated_at = EXCLUDED.source_updated_at,
        source_md5 = EXCLUDED.source_md5, search_text = EXCLUDED.search_text, search_vector = EXCLUDED.search_vector,
        indexed_at = CASE WHEN s.source_md5 = EXCLUDED.source_md5 THEN s.indexed_at ELSE now() END
    )
    SELECT count(*) FILTER (WHERE c.old_md5 IS DISTINCT FROM c.md5)::int AS n FROM c`.execute(trx);
  return res.rows[0]?.n ?? 0;
}
