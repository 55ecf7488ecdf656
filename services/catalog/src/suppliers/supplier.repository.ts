import { type ApltDatabase, type Insertable, type Kysely, sql } from '@aplt/db';
import { containsPattern } from '../shared/paging';
import type { feedFormats } from './supplier.schemas';

type Db = Kysely<ApltDatabase>;

const columns = sql`s.id, s.code::text AS code, s.name, s.feed_format, s.website, s.contact_email, s.is_active,
  s.settings ->> 'margin_percent' AS margin_percent,
  jsonb_build_object(
    'products', coalesce(s.settings -> 'feeds' ->> 'products', '') <> '',
    'stock', coalesce(s.settings -> 'feeds' ->> 'stock', '') <> '',
    'prices', coalesce(s.settings -> 'feeds' ->> 'prices', '') <> '',
    'printdata', coalesce(s.settings -> 'feeds' ->> 'printdata', '') <> '') AS feeds,
  (SELECT count(*) FROM aplt_products p WHERE p.supplier_code = s.code)::int AS product_count,
  (SELECT count(*) FROM aplt_techniques t WHERE t.supplier_code = s.code)::int AS technique_count,
  s.created_at, s.updated_at`;

export interface SupplierRow {
  id: number;
  code: string;
  name: string;
  feed_format: (typeof feedFormats)[number] | null;
  website: string | null;
  contact_email: string | null;
  is_active: boolean;
  margin_percent: string | null;
  feeds: { products: boolean; stock: boolean; prices: boolean; printdata: boolean };
  product_count: number;
  technique_count: number;
  created_at: Date;
  updated_at: Date;
}

export async function listSuppliers(
  db: Db,
  f: { q?: string | undefined; is_active?: boolean | undefined; limit: number; offset: number },
) {
  const conds = [sql`true`];
  if (f.is_active !== undefined) conds.push(sql`s.is_active = ${f.is_active}`);
  if (f.q) {
    const p = containsPattern(f.q);
    conds.push(
      sql`(s.code ILIKE ${p} OR s.name ILIKE ${p} OR s.website ILIKE ${p} OR s.contact_email ILIKE ${p})`,
    );
  }
  const where = sql.join(conds, sql` AND `);
  const [rows, total] = await Promise.all([
    sql<SupplierRow>`SELECT ${columns} FROM aplt_suppliers s WHERE ${where} ORDER BY s.code LIMIT ${f.limit} OFFSET ${f.offset}`.execute(
      db,
    ),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_suppliers s WHERE ${where}`.execute(db),
  ]);
  return { rows: rows.rows, count: total.rows[0]?.n ?? 0 };
}

export async function findSupplier(db: Db, id: number, forUpdate = false) {
  const r = await sql<SupplierRow>`SELECT ${columns} FROM aplt_suppliers s WHERE s.id = ${id}
    ${forUpdate ? sql`FOR UPDATE OF s` : sql``}`.execute(db);
  return r.rows[0];
}

/** What the admin may change of a supplier; margin_percent is kept in its settings (null: removed). */
export type SupplierChanges = Partial<
  Pick<
    Insertable<ApltDatabase['aplt_suppliers']>,
    'name' | 'website' | 'contact_email' | 'is_active' | 'feed_format'
  >
> & { margin_percent?: string | null | undefined };

export async function updateSupplier(db: Db, id: number, values: SupplierChanges) {
  const { margin_percent, ...plain } = values;
  // Kysely leaves undefined fields out of the SET; with none left there is nothing to write.
  if (margin_percent === undefined && Object.values(plain).every((v) => v === undefined)) return;
  await db
    .updateTable('aplt_suppliers')
    .set({
      ...plain,
      settings:
        margin_percent === undefined
          ? undefined
          : margin_percent === null
            ? sql`settings - 'margin_percent'`
            : sql`settings || jsonb_build_object('margin_percent', ${margin_percent}::text)`,
    })
    .where('id', '=', id)
    .execute();
}
