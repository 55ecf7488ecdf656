import { type ApltDatabase, type Insertable, type Kysely, type Selectable, sql } from '@aplt/db';
import type { Updateable } from 'kysely';
import { containsPattern } from '../shared/paging';
import type { ResolvedLine } from './pricing.service';
import type { LineInput } from './quotation.schemas';

type Quotations = ApltDatabase['aplt_quotation_headers'];
export type QuotationHeader = Selectable<Quotations>;
export type QuotationHeaderChanges = Updateable<Quotations>;

export async function insertQuotationHeader(db: Kysely<ApltDatabase>, values: Insertable<Quotations>) {
  return db.insertInto('aplt_quotation_headers').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateQuotationHeader(
  db: Kysely<ApltDatabase>,
  id: number,
  values: QuotationHeaderChanges,
) {
  return db
    .updateTable('aplt_quotation_headers')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Inserts lines (numbered from startLineNo) with their setup costs: two statements in all. */
export async function insertQuotationLines(
  db: Kysely<ApltDatabase>,
  quotationId: number,
  lines: ResolvedLine[],
  startLineNo = 1,
) {
  if (!lines.length) return [];
  const inserted = await db
    .insertInto('aplt_quotation_lines')
    .values(
      lines.map(({ setup_costs: _s, ...line }, i) => ({
        ...line,
        quotation_id: quotationId,
        line_no: startLineNo + i,
        metadata: JSON.stringify(line.metadata),
      })),
    )
    .returningAll()
    .execute();
  // Multi-row INSERT ... RETURNING returns rows in VALUES order; line_no ties them up regardless.
  const byLineNo = new Map(inserted.map((r) => [Number(r.line_no), r]));
  const setups = lines.flatMap((l, i) =>
    l.setup_costs.map((s) => ({ ...s, quotation_line_id: byLineNo.get(startLineNo + i)!.id })),
  );
  if (setups.length) await db.insertInto('aplt_quotation_line_setup_costs').values(setups).execute();
  return inserted.sort((a, b) => Number(a.line_no) - Number(b.line_no));
}

export async function deleteQuotationLines(db: Kysely<ApltDatabase>, quotationId: number) {
  await db.deleteFrom('aplt_quotation_lines').where('quotation_id', '=', quotationId).execute();
}

export async function findQuotationHeader(db: Kysely<ApltDatabase>, id: number, forUpdate = false) {
  let q = db.selectFrom('aplt_quotation_headers').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findQuotationLines(db: Kysely<ApltDatabase>, quotationIds: number[]) {
  if (!quotationIds.length) return [];
  return db
    .selectFrom('aplt_quotation_lines')
    .selectAll()
    .where('quotation_id', 'in', quotationIds)
    .orderBy('quotation_id')
    .orderBy('line_no')
    .orderBy('id')
    .execute();
}

export async function findSetupCosts(db: Kysely<ApltDatabase>, lineIds: number[]) {
  if (!lineIds.length) return [];
  return db
    .selectFrom('aplt_quotation_line_setup_costs')
    .selectAll()
    .where('quotation_line_id', 'in', lineIds)
    .orderBy('id')
    .execute();
}

export async function findQuotationLine(db: Kysely<ApltDatabase>, lineId: number) {
  return (
    db
      .selectFrom('aplt_quotation_lines')
      .selectAll()
      .where('id', '=', lineId)
      // The column's CHECK allows only these.
      .$narrowType<{ line_type: LineInput['line_type'] }>()
      .executeTakeFirst()
  );
}

export async function updateQuotationLine(
  db: Kysely<ApltDatabase>,
  lineId: number,
  values: Updateable<ApltDatabase['aplt_quotation_lines']>,
) {
  return db
    .updateTable('aplt_quotation_lines')
    .set(values)
    .where('id', '=', lineId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteQuotationLine(db: Kysely<ApltDatabase>, lineId: number) {
  await db.deleteFrom('aplt_quotation_lines').where('id', '=', lineId).execute();
}

export async function nextLineNo(db: Kysely<ApltDatabase>, quotationId: number): Promise<number> {
  const row = await db
    .selectFrom('aplt_quotation_lines')
    .select(sql<number>`coalesce(max(line_no), 0) + 1`.as('n'))
    .where('quotation_id', '=', quotationId)
    .executeTakeFirst();
  return Number(row?.n ?? 1);
}

export interface QuotationFilter {
  source_code?: string;
  status?: string;
  customer_id?: number;
  customer_email?: string;
  q?: string;
  limit: number;
  offset: number;
}

/** A page of quotation headers (newest first) and the number of all that match. */
export async function listQuotationHeaders(db: Kysely<ApltDatabase>, f: QuotationFilter) {
  let q = db.selectFrom('aplt_quotation_headers');
  if (f.source_code) q = q.where('source_code', '=', f.source_code);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id);
  if (f.customer_email)
    q = q.where((eb) => eb(eb.fn('lower', ['customer_email']), '=', f.customer_email!.toLowerCase()));
  const search = f.q?.trim();
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) =>
      eb.or([
        eb('quotation_number', 'ilike', like),
        eb('title', 'ilike', like),
        eb('reference', 'ilike', like),
        eb('customer_company', 'ilike', like),
        eb('customer_name', 'ilike', like),
        eb('customer_email', 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The caller's quotations: by aplt customer id or the e-mail on the quotation (spec: match by e-mail). */
export async function listQuotationsOfCustomer(
  db: Kysely<ApltDatabase>,
  customerId: number | null,
  email: string,
  status?: string,
) {
  let q = db
    .selectFrom('aplt_quotation_headers')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(customerId ? [eb('customer_id', '=', customerId)] : []),
        eb(eb.fn('lower', ['customer_email']), '=', email.toLowerCase()),
      ]),
    );
  if (status) q = q.where('status', '=', status);
  return q.orderBy('id', 'desc').limit(200).execute();
}

/** Marks open quotations whose validity passed as expired; returns their ids. */
export async function expireQuotations(db: Kysely<ApltDatabase>, asOf: string) {
  const rows = await db
    .updateTable('aplt_quotation_headers')
    .set({ status: 'expired', expired_at: sql`now()` })
    .where('status', '=', 'open')
    .where('valid_until', '<', asOf)
    .returning(['id', 'quotation_number'])
    .execute();
  return rows;
}

export async function deleteQuotation(db: Kysely<ApltDatabase>, id: number) {
  await db.deleteFrom('aplt_quotation_headers').where('id', '=', id).execute();
}
