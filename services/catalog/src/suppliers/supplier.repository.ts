import { type Kysely, sql } from '@aplt/db';
import { containsPattern } from '../shared/paging';
import type { feedFormats } from './supplier.schemas';

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
  db: Kysely<any>,
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

export async function findSupplier(db: Kysely<any>, id: number, forUpdate = false) {
  const r = await sql<SupplierRow>`SELECT ${columns} FROM aplt_suppliers s WHERE s.id = ${id}
    ${forUpdate ? sql`FOR UPDATE OF s` : sql``}`.execute(db);
  return r.rows[0];
}

export async function updateSupplier(
  db: Kysely<any>,
  id: number,
  values: {
    name?: string | undefined;
    website?: string | null | undefined;
    contact_email?: string | null | undefined;
    is_active?: boolean | undefined;
    feed_format?: string | null | undefined;
    margin_percent?: string | null | undefined;
  },
) {
  const { margin_percent, ...plain } = values;
  const set: Record<string, unknown> = Object.fromEntries(
    Object.entries(plain).filter(([, v]) => v !== undefined),
  );
  if (margin_percent !== undefined)
    set.settings =
      margin_percent === null
        ? sql`settings - 'margin_percent'`
        : sql`settings || jsonb_build_object('margin_percent', ${margin_percent}::text)`;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('aplt_suppliers').set(set).where('id', '=', id).execute();
}
