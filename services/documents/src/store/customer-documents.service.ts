import type { ApltDatabase, Kysely } from '@aplt/db';
import { notFound } from '@aplt/http';
import { normaliseInvoice } from '../invoices/invoice.service';
import type { Caller } from './customer-portal.service';
import * as repo from './customer-documents.repository';
import { invoiceView, orderView } from './customer-views';

/** The caller's orders, newest first, a page at a time, with status, tracking link and expected delivery. */
export async function listMyOrders(
  db: Kysely<ApltDatabase>,
  who: Caller,
  q: { status?: string; limit: number; offset: number },
) {
  const { rows, count } = await repo.listOrdersOf(db, who, q);
  const lines = await repo.orderLines(
    db,
    rows.map((r) => Number(r.id)),
  );
  const data = rows.map((o) =>
    orderView(
      o,
      lines.filter((l) => String(l.order_id) === String(o.id)),
    ),
  );
  return { data, count, limit: q.limit, offset: q.offset };
}

export async function myOrder(db: Kysely<ApltDatabase>, who: Caller, id: number) {
  const o = await repo.findOrderOf(db, who, id);
  if (!o) throw notFound(`Order ${id} not found`);
  return orderView(o, await repo.orderLines(db, [id]));
}

/**
 * The caller's invoices and credit notes. The status (open, paid, overdue) is derived from the
 * balance and the due date on read, like the admin's, so the filter runs after normalising.
 */
export async function listMyInvoices(
  db: Kysely<ApltDatabase>,
  who: Caller,
  q: { status?: string; year?: number; limit: number; offset: number },
) {
  if (!who.customer) return { data: [], count: 0, limit: q.limit, offset: q.offset };
  let rows = (await repo.invoicesOf(db, who.customer.id, q.year)).map((h) => normaliseInvoice(h));
  if (q.status) rows = rows.filter((r) => r.status === q.status);
  const page = rows.slice(q.offset, q.offset + q.limit);
  const { lines, vat } = await repo.invoiceLinesAndVat(
    db,
    page.map((r) => Number(r.id)),
  );
  const data = page.map((i) =>
    invoiceView(
      i,
      lines.filter((l) => String(l.invoice_id) === String(i.id)),
      vat.filter((v) => String(v.invoice_id) === String(i.id)),
    ),
  );
  return { data, count: rows.length, limit: q.limit, offset: q.offset };
}

/** One invoice or credit note of the caller; anyone else's id is a 404. */
export async function myInvoiceHeader(db: Kysely<ApltDatabase>, who: Caller, id: number) {
  const h = who.customer ? await repo.findInvoiceOf(db, who.customer.id, id) : undefined;
  if (!h) throw notFound(`Invoice ${id} not found`);
  return h;
}

export async function myInvoice(db: Kysely<ApltDatabase>, who: Caller, id: number) {
  const h = await myInvoiceHeader(db, who, id);
  const { lines, vat } = await repo.invoiceLinesAndVat(db, [id]);
  return invoiceView(normaliseInvoice(h), lines, vat);
}
