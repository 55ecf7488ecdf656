import {
  type ApltDatabase,
  type CommerceDatabase,
  type Insertable,
  type Kysely,
  sql,
  type Transaction,
} from '@aplt/db';
import { containsPattern } from '../shared/paging';

/*
 * aplt_returns, aplt_return_lines and aplt_return_photos. Reads of a customer carry the owner
 * condition (returns.customer_id) in the query itself.
 */

type Db = Kysely<ApltDatabase>;

/** Returns that still hold their quantities: a rejected return gives them back. */
const HOLDING = ['requested', 'approved', 'received', 'refunded', 'closed'] as const;

/** The caller's invoice (not a proforma or credit note). */
export async function findReturnableInvoice(db: Db, customerId: number, invoiceId: number) {
  return db
    .selectFrom('aplt_invoice_headers')
    .select(['id', 'invoice_number', 'order_id', 'brand_id', 'customer_id'])
    .where('id', '=', invoiceId)
    .where('customer_id', '=', customerId)
    .where('document_type', '=', 'invoice')
    .executeTakeFirst();
}

/**
 * Locks the invoice's lines named in the return (in id order, so two returns of one invoice
 * never deadlock): a second return of the same lines waits here until the first commits, then
 * sees its quantities.
 */
export async function lockInvoiceLines(trx: Transaction<ApltDatabase>, invoiceId: number, lineIds: number[]) {
  return trx
    .selectFrom('aplt_invoice_lines')
    .select([
      'id',
      'line_type',
      'order_line_id',
      'product_id',
      'variant_id',
      'sku',
      'description',
      'quantity',
    ])
    .where('invoice_id', '=', invoiceId)
    .where('id', 'in', lineIds)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Quantity per invoice line already held by earlier returns. */
export async function returnedQuantities(db: Db, lineIds: number[]): Promise<Map<string, number>> {
  if (!lineIds.length) return new Map();
  const rows = await db
    .selectFrom('aplt_return_lines as l')
    .innerJoin('aplt_returns as r', 'r.id', 'l.return_id')
    .select(['l.invoice_line_id', sql<number>`sum(l.quantity)::int`.as('returned')])
    .where('l.invoice_line_id', 'in', lineIds)
    .where('r.status', 'in', HOLDING)
    .groupBy('l.invoice_line_id')
    .execute();
  return new Map(rows.map((r) => [String(r.invoice_line_id), r.returned]));
}

/** R-<yyyy>-<nnnn> from the gapless per-year counter, inside the caller's transaction. */
export async function allocateReturnNumber(trx: Transaction<ApltDatabase>, year: number): Promise<string> {
  const row = await sql<{ last_value: number }>`
    INSERT INTO aplt_number_sequences (prefix, year, last_value) VALUES ('R', ${year}, 1)
    ON CONFLICT (prefix, year) DO UPDATE SET last_value = aplt_number_sequences.last_value + 1
    RETURNING last_value`.execute(trx);
  return `R-${year}-${String(row.rows[0]!.last_value).padStart(4, '0')}`;
}

export async function insertReturn(
  trx: Transaction<ApltDatabase>,
  values: Insertable<ApltDatabase['aplt_returns']>,
) {
  return trx.insertInto('aplt_returns').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function setReturnNumber(
  trx: Transaction<ApltDatabase>,
  id: number,
  number: string,
): Promise<void> {
  await trx.updateTable('aplt_returns').set({ return_number: number }).where('id', '=', id).execute();
}

export async function insertReturnLines(
  trx: Transaction<ApltDatabase>,
  rows: Array<Insertable<ApltDatabase['aplt_return_lines']>>,
) {
  return trx.insertInto('aplt_return_lines').values(rows).returningAll().execute();
}

export async function insertReturnPhotos(
  trx: Transaction<ApltDatabase>,
  rows: Array<Insertable<ApltDatabase['aplt_return_photos']>>,
) {
  if (!rows.length) return [];
  return trx.insertInto('aplt_return_photos').values(rows).returningAll().execute();
}

export async function listReturnsOf(
  db: Db,
  customerId: number,
  f: { status?: string; limit: number; offset: number },
) {
  let q = db
    .selectFrom('aplt_returns as r')
    .leftJoin('aplt_invoice_headers as i', 'i.id', 'r.invoice_id')
    .where('r.customer_id', '=', customerId);
  if (f.status) q = q.where('r.status', '=', f.status);
  const [rows, total] = await Promise.all([
    q
      .selectAll('r')
      .select('i.invoice_number')
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: total.n };
}

export async function findReturnOf(db: Db, customerId: number, id: number) {
  return db
    .selectFrom('aplt_returns as r')
    .leftJoin('aplt_invoice_headers as i', 'i.id', 'r.invoice_id')
    .selectAll('r')
    .select('i.invoice_number')
    .where('r.id', '=', id)
    .where('r.customer_id', '=', customerId)
    .executeTakeFirst();
}

export async function linesAndPhotosOf(db: Db, returnIds: number[]) {
  if (!returnIds.length) return { lines: [], photos: [] };
  const [lines, photos] = await Promise.all([
    db
      .selectFrom('aplt_return_lines')
      .selectAll()
      .where('return_id', 'in', returnIds)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('aplt_return_photos')
      .selectAll()
      .where('return_id', 'in', returnIds)
      .orderBy('return_id')
      .orderBy('slot')
      .execute(),
  ]);
  return { lines, photos };
}

/** A photo of one of the customer's returns. */
export async function findPhotoOf(db: Db, customerId: number, returnId: number, photoId: number) {
  return db
    .selectFrom('aplt_return_photos as p')
    .innerJoin('aplt_returns as r', 'r.id', 'p.return_id')
    .select(['p.id', 'p.file_path', 'p.content_type', 'p.size_bytes', 'p.sha256'])
    .where('p.id', '=', photoId)
    .where('p.return_id', '=', returnId)
    .where('r.customer_id', '=', customerId)
    .executeTakeFirst();
}

/**
 * Who hears about a new return: the brand's `returns_email` setting, else its company `email`,
 * else every admin user of the tenant.
 */
export async function staffAddresses(
  aplt: Db,
  commerce: Kysely<CommerceDatabase>,
  brandId: number | null,
): Promise<string[]> {
  const brand =
    brandId ??
    (await aplt.selectFrom('aplt_brands').select('id').where('is_default', '=', true).executeTakeFirst())
      ?.id ??
    null;
  if (brand !== null) {
    const settings = await aplt
      .selectFrom('aplt_cms_settings')
      .select(['key', 'value'])
      .where('brand_id', '=', brand)
      .where('key', 'in', ['returns_email', 'email'])
      .execute();
    const byKey = new Map(settings.map((s) => [s.key, s.value]));
    const configured = byKey.get('returns_email') || byKey.get('email');
    if (configured) return configured.split(/[,;\s]+/).filter(Boolean);
  }
  const users = await commerce
    .selectFrom('user')
    .select('email')
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
  return users.map((u) => u.email);
}

/** Staff's view: every customer's returns, with the invoice number and the customer's name. */
function staffBase(db: Db) {
  return db
    .selectFrom('aplt_returns as r')
    .leftJoin('aplt_invoice_headers as i', 'i.id', 'r.invoice_id')
    .leftJoin('aplt_customers as c', 'c.id', 'r.customer_id');
}

const customerColumns = [
  'i.invoice_number',
  'c.company as customer_company',
  sql<string | null>`nullif(trim(concat_ws(' ', c.first_name, c.last_name)), '')`.as('customer_name'),
] as const;

export interface StaffReturnFilter {
  status?: string | undefined;
  invoice_id?: number | undefined;
  customer_id?: number | undefined;
  /** Return number, invoice number or customer e-mail (substring, case-insensitive). */
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** A page of returns for staff, newest first, and how many match in all. */
export async function listStaffReturns(db: Db, f: StaffReturnFilter) {
  let q = staffBase(db);
  if (f.status) q = q.where('r.status', '=', f.status);
  if (f.invoice_id) q = q.where('r.invoice_id', '=', f.invoice_id);
  if (f.customer_id) q = q.where('r.customer_id', '=', f.customer_id);
  if (f.q) {
    const like = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([
        eb('r.return_number', 'ilike', like),
        eb('i.invoice_number', 'ilike', like),
        eb('r.customer_email', 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .selectAll('r')
      .select(customerColumns)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: total.n };
}

/** One return for staff, with the invoice number and the customer's name. */
export const findStaffReturn = (db: Db, id: number) =>
  staffBase(db).selectAll('r').select(customerColumns).where('r.id', '=', id).executeTakeFirst();

/** A photo of a return, for staff (any customer's). */
export const findReturnPhoto = (db: Db, returnId: number, photoId: number) =>
  db
    .selectFrom('aplt_return_photos')
    .select(['file_path', 'content_type'])
    .where('id', '=', photoId)
    .where('return_id', '=', returnId)
    .executeTakeFirst();
