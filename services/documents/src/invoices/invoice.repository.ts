import { type ApltDatabase, type Insertable, type Kysely, type Selectable, sql } from '@aplt/db';
import type { Updateable } from 'kysely';
import { containsPattern } from '../shared/paging';

type Invoices = ApltDatabase['aplt_invoice_headers'];
export type InvoiceHeader = Selectable<Invoices>;

export async function insertInvoiceHeader(db: Kysely<ApltDatabase>, values: Insertable<Invoices>) {
  return db.insertInto('aplt_invoice_headers').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertInvoiceLines(
  db: Kysely<ApltDatabase>,
  rows: Array<Insertable<ApltDatabase['aplt_invoice_lines']>>,
) {
  if (!rows.length) return [];
  return db.insertInto('aplt_invoice_lines').values(rows).returningAll().execute();
}

export async function insertVatSummary(
  db: Kysely<ApltDatabase>,
  rows: Array<Insertable<ApltDatabase['aplt_invoice_vat_summary']>>,
) {
  if (!rows.length) return;
  await db.insertInto('aplt_invoice_vat_summary').values(rows).execute();
}

export async function findInvoiceHeader(db: Kysely<ApltDatabase>, id: number, forUpdate = false) {
  let q = db.selectFrom('aplt_invoice_headers').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findInvoiceLines(db: Kysely<ApltDatabase>, invoiceIds: number[]) {
  if (!invoiceIds.length) return [];
  return db
    .selectFrom('aplt_invoice_lines')
    .selectAll()
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('line_no')
    .execute();
}

export async function findVatSummaries(db: Kysely<ApltDatabase>, invoiceIds: number[]) {
  if (!invoiceIds.length) return [];
  return db
    .selectFrom('aplt_invoice_vat_summary')
    .selectAll()
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('vat_rate', 'desc')
    .execute();
}

export async function updateInvoiceHeader(
  db: Kysely<ApltDatabase>,
  id: number,
  values: Updateable<Invoices>,
) {
  return db
    .updateTable('aplt_invoice_headers')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addCreditedQuantity(db: Kysely<ApltDatabase>, lineId: number, quantity: number) {
  await db
    .updateTable('aplt_invoice_lines')
    .set((eb) => ({ credited_quantity: eb('credited_quantity', '+', quantity) }))
    .where('id', '=', lineId)
    .execute();
}

/** Per invoice line: the amount already credited by credit-note lines. */
export async function creditedAmounts(db: Kysely<ApltDatabase>, invoiceLineIds: number[]) {
  if (!invoiceLineIds.length) return new Map<string, string>();
  const rows = await db
    .selectFrom('aplt_invoice_lines')
    .select(['credited_line_id', sql<string>`sum(line_total)`.as('amount')])
    .where('credited_line_id', 'in', invoiceLineIds)
    .groupBy('credited_line_id')
    .execute();
  return new Map(rows.map((r) => [String(r.credited_line_id), String(r.amount)]));
}

/** Per (category, rate): VAT already credited on an invoice by its credit notes. */
export async function creditedVat(db: Kysely<ApltDatabase>, invoiceId: number) {
  return db
    .selectFrom('aplt_invoice_vat_summary as s')
    .innerJoin('aplt_invoice_headers as h', 'h.id', 's.invoice_id')
    .select([
      's.vat_category',
      's.vat_rate',
      sql<string>`sum(s.taxable_amount)`.as('taxable'),
      sql<string>`sum(s.vat_amount)`.as('vat'),
    ])
    .where('h.credited_invoice_id', '=', invoiceId)
    .groupBy(['s.vat_category', 's.vat_rate'])
    .execute();
}

export interface InvoiceFilter {
  document_type: 'invoice' | 'proforma' | 'credit_note' | Array<'invoice' | 'proforma' | 'credit_note'>;
  customer_id?: number;
  year?: number;
  order_id?: number;
  /** Credit notes of this invoice. */
  credited_invoice_id?: number;
  /** Derived status as of `asOf` (see invoiceState), or `outstanding`: a balance left. */
  status?: string;
  asOf?: string;
  q?: string;
  limit: number;
  offset: number;
}

/** The derived status of invoiceState() in SQL, so the list filters and counts in the database. */
const derivedStatus = (asOf: string) => sql<string>`CASE
    WHEN document_type = 'proforma' THEN 'open'
    WHEN document_type = 'credit_note' THEN 'paid'
    WHEN total - credited_total - paid_total <= 0
      THEN CASE WHEN paid_total = 0 AND total > 0 THEN 'cancelled' ELSE 'paid' END
    WHEN due_date < ${asOf}::date THEN 'overdue'
    ELSE 'open' END`;

/** A page of invoice headers (newest first) and the number of all that match. */
export async function listInvoiceHeaders(db: Kysely<ApltDatabase>, f: InvoiceFilter) {
  let q = db.selectFrom('aplt_invoice_headers');
  q = Array.isArray(f.document_type)
    ? q.where('document_type', 'in', f.document_type)
    : q.where('document_type', '=', f.document_type);
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id);
  if (f.order_id) q = q.where('order_id', '=', f.order_id);
  if (f.credited_invoice_id) q = q.where('credited_invoice_id', '=', f.credited_invoice_id);
  if (f.year) q = q.where(sql`extract(year from issue_date)`, '=', f.year);
  if (f.status === 'outstanding')
    q = q.where('document_type', '=', 'invoice').where(sql<boolean>`total - credited_total - paid_total > 0`);
  else if (f.status) q = q.where(derivedStatus(f.asOf ?? '9999-12-31'), '=', f.status);
  const search = f.q?.trim();
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) =>
      eb.or([
        eb('invoice_number', 'ilike', like),
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

/** Money that reached an invoice: payment allocations (with the payment) and spent customer credit. */
export async function allocationsOfInvoice(db: Kysely<ApltDatabase>, invoiceId: number) {
  return db
    .selectFrom('aplt_payment_allocations as a')
    .leftJoin('aplt_payments as p', 'p.id', 'a.payment_id')
    .leftJoin('aplt_unapplied_credits as u', 'u.id', 'a.unapplied_credit_id')
    .select([
      'a.id',
      'a.amount',
      'a.allocated_at',
      'a.payment_id',
      'p.payment_number',
      sql<string | null>`p.payment_date::text`.as('payment_date'),
      'p.method',
      'a.unapplied_credit_id',
      'u.source_type as credit_source_type',
    ])
    .where('a.invoice_id', '=', invoiceId)
    .orderBy('a.id')
    .execute();
}

/** The credit notes of an invoice, oldest first. */
export async function creditNotesOfInvoice(db: Kysely<ApltDatabase>, invoiceId: number) {
  return db
    .selectFrom('aplt_invoice_headers')
    .select([
      'id',
      'invoice_number',
      sql<string>`issue_date::text`.as('issue_date'),
      'subtotal',
      'vat_total',
      'total',
      'credit_reason',
    ])
    .where('credited_invoice_id', '=', invoiceId)
    .where('document_type', '=', 'credit_note')
    .orderBy('id')
    .execute();
}

export async function deleteInvoice(db: Kysely<ApltDatabase>, id: number) {
  await db.deleteFrom('aplt_invoice_headers').where('id', '=', id).execute();
}

/** Company data of a brand for printing (aplt_cms_settings key/value). */
export async function brandWithSettings(db: Kysely<ApltDatabase>, brandId: number | null) {
  const brand = brandId
    ? await db.selectFrom('aplt_brands').selectAll().where('id', '=', brandId).executeTakeFirst()
    : await db.selectFrom('aplt_brands').selectAll().where('is_default', '=', true).executeTakeFirst();
  if (!brand) return null;
  const settings = await db
    .selectFrom('aplt_cms_settings')
    .select(['key', 'value'])
    .where('brand_id', '=', brand.id)
    .execute();
  return { ...brand, settings: Object.fromEntries(settings.map((s) => [s.key, s.value])) };
}

/**
 * Everything needed to print an invoice, proforma or credit note: header, lines, VAT summary,
 * customer, brand with company settings, and (for a credit note) the credited invoice's number
 * and date. For the output service (PDF/UBL/.eml).
 */
export async function loadInvoiceDocument(db: Kysely<ApltDatabase>, id: number) {
  const header = await findInvoiceHeader(db, id);
  if (!header) return undefined;
  const [lines, vat_summary, customer, brand, credited] = await Promise.all([
    findInvoiceLines(db, [id]),
    findVatSummaries(db, [id]),
    db.selectFrom('aplt_customers').selectAll().where('id', '=', header.customer_id).executeTakeFirst(),
    brandWithSettings(db, header.brand_id),
    header.credited_invoice_id
      ? db
          .selectFrom('aplt_invoice_headers')
          .select(['id', 'invoice_number', 'issue_date'])
          .where('id', '=', header.credited_invoice_id)
          .executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  return {
    header,
    lines,
    vat_summary,
    customer: customer ?? null,
    brand,
    credited_invoice: credited ?? null,
  };
}

/** Active VAT codes, to tag invoice lines and VAT summary rows with their code (for UBL and books). */
export async function activeVatCodes(db: Kysely<ApltDatabase>) {
  return db
    .selectFrom('aplt_vat_codes')
    .select(['id', 'rate', 'category'])
    .where('is_active', '=', true)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
}
