import { type Kysely, sql } from '@aplt/db';
import { refreshProductSearch } from '../search/search-index.repository';

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

async function writableColumns(db: Kysely<any>, table: string): Promise<string[]> {
  const r = await sql<{ attname: string }>`
    SELECT a.attname FROM pg_attribute a
    WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY a.attnum`.execute(db);
  return r.rows.map((x) => x.attname);
}

/** Rows of the catalog tables in `source`: what one target's update copies (for its progress). */
export async function countCatalogRows(source: Kysely<any>): Promise<number> {
  const r = await sql<{ n: number }>`SELECT (${sql.join(
    catalogTables.map((t) => sql`(SELECT count(*) FROM ${sql.table(t)})`),
    sql` + `,
  )})::bigint AS n`.execute(source);
  return Number(r.rows[0]?.n ?? 0);
}

/** Copies the catalog in one transaction per target: a failed update leaves the tenant as it was. */
export async function copyCatalog(
  source: Kysely<any>,
  target: Kysely<any>,
  onProgress: (table: string, rows: number) => Promise<void> = async () => {},
): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  const parents: Array<[number, number | null]> = [];
  await target.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx); // many small statements: JIT compile time would dominate
    await sql`CREATE TEMP TABLE catalog_seen (tbl text, id bigint, PRIMARY KEY (tbl, id)) ON COMMIT DROP`.execute(
      trx,
    );
    for (const table of catalogTables) {
      // VAT codes are the tenant's own (its bookkeeping), so a product keeps the tenant's choice.
      const cols = (await writableColumns(trx, table)).filter(
        (c) => !(table === 'aplt_products' && c === 'vat_code_id'),
      );
      const colList = sql.join(cols.map((c) => sql.ref(c)));
      const updates = sql.join(
        cols.filter((c) => c !== 'id').map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`),
      );
      let lastId = 0;
      let count = 0;
      while (true) {
        const rows = (
          await sql<
            Record<string, unknown>
          >`SELECT ${colList} FROM ${sql.table(table)} WHERE id > ${lastId} ORDER BY id LIMIT ${CHUNK}`.execute(
            source,
          )
        ).rows;
        if (rows.length === 0) break;
        lastId = Number(rows[rows.length - 1]?.id);
        // A category may point at a parent with a higher id: parents are linked after all are in.
        const isCategory = table === 'aplt_categories';
        if (isCategory) for (const r of rows) parents.push([Number(r.id), r.parent_id as number | null]);
        const values = sql.join(
          rows.map(
            (r) =>
              sql`(${sql.join(cols.map((c) => toParam(isCategory && c === 'parent_id' ? null : r[c])))})`,
          ),
        );
        await sql`INSERT INTO ${sql.table(table)} (${colList}) OVERRIDING SYSTEM VALUE VALUES ${values}
          ON CONFLICT (id) DO UPDATE SET ${updates}`.execute(trx);
        await sql`INSERT INTO catalog_seen SELECT ${table}, unnest(${rows.map((r) => Number(r.id))}::bigint[])`.execute(
          trx,
        );
        count += rows.length;
        await onProgress(table, count);
      }
      copied[table] = count;
      if (table === 'aplt_categories' && parents.length > 0) {
        await sql`UPDATE aplt_categories c SET parent_id = x.parent FROM unnest(${parents.map((p) => p[0])}::bigint[],
          ${parents.map((p) => p[1])}::bigint[]) AS x(id, parent) WHERE c.id = x.id`.execute(trx);
      }
    }
    for (const table of [...catalogTables].reverse()) {
      await sql`DELETE FROM ${sql.table(table)} t WHERE NOT EXISTS (SELECT 1 FROM catalog_seen s WHERE s.tbl = ${table} AND s.id = t.id)`.execute(
        trx,
      );
      // The tenant may add its own rows later: its identity must continue after the master's ids.
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), greatest((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(
        trx,
      );
    }
    // The search documents are derived: indexed here for what changed, findable at commit.
    await refreshProductSearch(trx);
  });
  return copied;
}

function toParam(v: unknown) {
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) return sql`${JSON.stringify(v)}::jsonb`;
  return sql`${v}`;
}
