import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import type { ExpressionBuilder } from 'kysely';
import type { Caller } from './customer-portal.service';

/*
 * Reads of a customer's orders and invoices. Every query carries the owner condition itself, so
 * a record that is not the caller's is simply not found (404), never "found but forbidden".
 */

/** An order is the caller's when it names the caller's aplt customer or is addressed to the caller's e-mail. */
function ownsOrder(
  eb: ExpressionBuilder<ApltDatabase & { o: ApltDatabase['aplt_order_headers'] }, 'o'>,
  who: Caller,
) {
  return eb.or([
    ...(who.customer ? [eb('o.customer_id', '=', who.customer.id)] : []),
    eb(sql`lower(o.customer_email)`, '=', who.email),
  ]);
}

export async function listOrdersOf(
  db: Kysely<ApltDatabase>,
  who: Caller,
  f: { status?: string; limit: number; offset: number },
) {
  let q = db.selectFrom('aplt_order_headers as o').where((eb) => ownsOrder(eb, who));
  if (f.status) q = q.where('o.status', '=', f.status);
  const [rows, total] = await Promise.all([
    q
      .selectAll('o')
      .orderBy('o.order_date', 'desc')
      .orderBy('o.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: total.n };
}

export async function findOrderOf(db: Kysely<ApltDatabase>, who: Caller, id: number) {
  return db
    .selectFrom('aplt_order_headers as o')
    .selectAll('o')
    .where('o.id', '=', id)
    .where((eb) => ownsOrder(eb, who))
    .executeTakeFirst();
}

export async function orderLines(db: Kysely<ApltDatabase>, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db
    .selectFrom('aplt_order_lines')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('line_no')
    .orderBy('id')
    .execute();
}

/** Invoices and credit notes of the caller's aplt customer (proformas are not the customer's history). */
const CUSTOMER_INVOICE_TYPES = ['invoice', 'credit_note'] as const;

/** At most this many invoices of one customer are considered for a list (status is derived per row). */
export const INVOICE_SCAN_LIMIT = 5000;

export async function invoicesOf(db: Kysely<ApltDatabase>, customerId: number, year?: number) {
  let q = db
    .selectFrom('aplt_invoice_headers')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('document_type', 'in', CUSTOMER_INVOICE_TYPES);
  if (year) q = q.where(sql`extract(year from issue_date)`, '=', year);
  return q.orderBy('issue_date', 'desc').orderBy('id', 'desc').limit(INVOICE_SCAN_LIMIT).execute();
}

export async function findInvoiceOf(db: Kysely<ApltDatabase>, customerId: number, id: number) {
  return db
    .selectFrom('aplt_invoice_headers')
    .selectAll()
    .where('id', '=', id)
    .where('customer_id', '=', customerId)
    .where('document_type', 'in', CUSTOMER_INVOICE_TYPES)
    .executeTakeFirst();
}

export async function invoiceLinesAndVat(db: Kysely<ApltDatabase>, invoiceIds: number[]) {
  if (!invoiceIds.length) return { lines: [], vat: [] };
  const [lines, vat] = await Promise.all([
    db
      .selectFrom('aplt_invoice_lines')
      .selectAll()
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('line_no')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('aplt_invoice_vat_summary')
      .selectAll()
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('vat_rate')
      .execute(),
  ]);
  return { lines, vat };
}
