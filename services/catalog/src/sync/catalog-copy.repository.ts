import { type ApltDatabase, type Kysely, sql, type Transaction } from '@aplt/db';

/**
 * The SQL of the tenant update (tenant-update.service.ts): reading a catalog table of the master's
 * aplt DB a chunk at a time, and writing it into a tenant's inside the update's one transaction.
 */

/** The columns a copy writes: every column but dropped and generated ones, in table order. */
export async function writableColumns(db: Kysely<ApltDatabase>, table: string): Promise<string[]> {
  const r = await sql<{ attname: string }>`
    SELECT a.attname FROM pg_attribute a
    WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY a.attnum`.execute(db);
  return r.rows.map((x) => x.attname);
}

/** The rows of these tables, all together. */
export async function countRows(db: Kysely<ApltDatabase>, tables: readonly string[]): Promise<number> {
  const r = await sql<{ n: number }>`SELECT (${sql.join(
    tables.map((t) => sql`(SELECT count(*) FROM ${sql.table(t)})`),
    sql` + `,
  )})::bigint AS n`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Settings and the table of rows seen in this copy, both ending with the transaction. */
export async function beginCopy(trx: Transaction<ApltDatabase>): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(trx); // many small statements: JIT compile time would dominate
  await sql`CREATE TEMP TABLE catalog_seen (tbl text, id bigint, PRIMARY KEY (tbl, id)) ON COMMIT DROP`.execute(
    trx,
  );
}

/** The next `limit` rows of `table` after id `afterId`, these columns only. */
export async function readRows(
  db: Kysely<ApltDatabase>,
  table: string,
  cols: string[],
  afterId: number,
  limit: number,
): Promise<Array<Record<string, unknown>>> {
  const colList = sql.join(cols.map((c) => sql.ref(c)));
  return (
    await sql<Record<string, unknown>>`SELECT ${colList} FROM ${sql.table(table)}
      WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`.execute(db)
  ).rows;
}

/**
 * Inserts or updates the rows by id, keeping their ids (so every foreign key means the same row on
 * both sides), and records them as seen. `nullColumn` is written as NULL (linked later).
 */
export async function upsertRows(
  trx: Transaction<ApltDatabase>,
  table: string,
  cols: string[],
  rows: Array<Record<string, unknown>>,
  nullColumn?: string,
): Promise<void> {
  const colList = sql.join(cols.map((c) => sql.ref(c)));
  const updates = sql.join(
    cols.filter((c) => c !== 'id').map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`),
  );
  const values = sql.join(
    rows.map((r) => sql`(${sql.join(cols.map((c) => toParam(c === nullColumn ? null : r[c])))})`),
  );
  await sql`INSERT INTO ${sql.table(table)} (${colList}) OVERRIDING SYSTEM VALUE VALUES ${values}
    ON CONFLICT (id) DO UPDATE SET ${updates}`.execute(trx);
  await sql`INSERT INTO catalog_seen SELECT ${table}, unnest(${rows.map((r) => Number(r.id))}::bigint[])`.execute(
    trx,
  );
}

/** Each category's parent, once all categories are in (a parent may have the higher id). */
export async function linkCategoryParents(
  trx: Transaction<ApltDatabase>,
  parents: Array<[number, number | null]>,
): Promise<void> {
  await sql`UPDATE aplt_categories c SET parent_id = x.parent FROM unnest(${parents.map((p) => p[0])}::bigint[],
    ${parents.map((p) => p[1])}::bigint[]) AS x(id, parent) WHERE c.id = x.id`.execute(trx);
}

/**
 * Deletes the rows of `table` this copy did not see (gone from the master), and moves its identity
 * past the highest id, so rows the tenant adds later continue after the master's.
 */
export async function removeUnseen(trx: Transaction<ApltDatabase>, table: string): Promise<void> {
  await sql`DELETE FROM ${sql.table(table)} t
    WHERE NOT EXISTS (SELECT 1 FROM catalog_seen s WHERE s.tbl = ${table} AND s.id = t.id)`.execute(trx);
  await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), greatest((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(
    trx,
  );
}

function toParam(v: unknown) {
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) return sql`${JSON.stringify(v)}::jsonb`;
  return sql`${v}`;
}
