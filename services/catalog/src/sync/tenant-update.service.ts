import type { ApltDatabase, Kysely } from '@aplt/db';
import { refreshProductSearch } from '../search/search-index.repository';
import * as repo from './catalog-copy.repository';

/**
 * Catalog tables copied from the master aplt DB into a tenant aplt DB, parents before children.
 * Ids are kept (OVERRIDING SYSTEM VALUE) so every foreign key means the same row on both sides;
 * generated columns are left out and recomputed by the target. Rows gone from the master are
 * deleted from the tenant, children first. The catalog tables of a tenant belong to the master.
 */
export const catalogTables = [
  'aplt_suppliers',
  'aplt_discount_groups',
  'aplt_colors',
  'aplt_categories',
  'aplt_products',
  'aplt_product_variants',
  'aplt_stock',
  'aplt_product_prices',
  'aplt_category_mappings',
  'aplt_techniques',
  'aplt_technique_pricing',
  'aplt_opstartkosten',
  'aplt_print_positions',
  'aplt_product_techniques',
] as const;

const CHUNK = 2000;
const tenantOwnProductColumns = new Set(['vat_code_id', 'search_source_at', 'feed_fingerprint']);

/** Rows of the catalog tables in `source`: what one target's update copies (for its progress). */
export const countCatalogRows = (source: Kysely<ApltDatabase>) => repo.countRows(source, catalogTables);

/** Copies the catalog in one transaction per target: a failed update leaves the tenant as it was. */
export async function copyCatalog(
  source: Kysely<ApltDatabase>,
  target: Kysely<ApltDatabase>,
  onProgress: (table: string, rows: number) => Promise<void> = async () => {},
): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  const parents: Array<[number, number | null]> = [];
  await target.transaction().execute(async (trx) => {
    await repo.beginCopy(trx);
    for (const table of catalogTables) {
      // VAT codes are the tenant's own (its bookkeeping), so a product keeps the tenant's choice;
      // search_source_at belongs to the tenant's own search index (its trigger keeps it), and
      // feed_fingerprint to the master's connector runs.
      const cols = (await repo.writableColumns(trx, table)).filter(
        (c) => !(table === 'aplt_products' && tenantOwnProductColumns.has(c)),
      );
      // A category may point at a parent with a higher id: parents are linked after all are in.
      const isCategory = table === 'aplt_categories';
      let lastId = 0;
      let count = 0;
      while (true) {
        const rows = await repo.readRows(source, table, cols, lastId, CHUNK);
        if (rows.length === 0) break;
        lastId = Number(rows[rows.length - 1]?.id);
        if (isCategory) for (const r of rows) parents.push([Number(r.id), r.parent_id as number | null]);
        await repo.upsertRows(trx, table, cols, rows, isCategory ? 'parent_id' : undefined);
        count += rows.length;
        await onProgress(table, count);
      }
      copied[table] = count;
      if (isCategory && parents.length > 0) await repo.linkCategoryParents(trx, parents);
    }
    for (const table of [...catalogTables].reverse()) await repo.removeUnseen(trx, table);
    // The search documents are derived: indexed here for what changed, findable at commit.
    await refreshProductSearch(trx);
  });
  return copied;
}
