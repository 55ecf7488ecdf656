import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

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
