import type { ApltDatabase, Kysely } from '@aplt/db';
import type { Updateable } from 'kysely';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { deleteRelationsTo, insertRelation } from '../chain/relation.repository';
import { post } from '../ledger/posting.service';
import { allocateNumber, provisionalNumber } from '../numbering/number.repository';
import * as orders from '../orders/order.repository';
import { lineAmount, resolveLines, STANDARD_VAT_RATE } from '../quotations/pricing.service';
import type { LineInput } from '../quotations/quotation.schemas';
import { addDays, isoDate, today } from '../shared/context';
import {
  customerAddress,
  customerName,
  type CustomerRow,
  findCustomer,
  findDefaultBrandId,
  findPaymentTermDays,
} from '../shared/customer.repository';
import { D, type Decimal, money, sum } from '../shared/money';
import { exemptionReason, lineVat, vatSummary, zeroRating } from '../shared/vat';
import * as repo from './invoice.repository';
import type { InvoiceHeader } from './invoice.repository';
import { copiedLineFields } from '../shared/line-copy';
import { jsonObject } from '../shared/json';
import type { OrderHeader } from '../orders/order.repository';

export type InvoiceKind = 'invoice' | 'proforma';

/** Payment term: explicit days, else the customer's term (table row first), else 30; B2B at most 60. */
async function termDays(
  db: Kysely<ApltDatabase>,
  customer: CustomerRow,
  explicit: number | undefined,
): Promise<{ days: number; termId: number | null }> {
  if (explicit !== undefined) return { days: explicit, termId: null };
  if (customer.payment_term_id) {
    const days = await findPaymentTermDays(db, customer.payment_term_id);
    if (days !== undefined) return { days, termId: customer.payment_term_id };
  }
  return { days: customer.payment_term_days ?? 30, termId: null };
}

export interface DraftLine {
  order_line_id?: number | null;
  line_type: string;
  product_id?: number | null;
  variant_id?: number | null;
  sku?: string | null;
  description?: string | null;
  quantity: number;
  unit_price: string;
  discount_percent: string;
  technique_code?: string | null;
  technique_name?: string | null;
  print_position?: string | null;
  print_area?: string | null;
  print_colours?: number | null;
  print_unit_price: string;
  vat_code_id?: number | null;
  vat_rate: string;
  line_total: string;
  metadata?: unknown;
}

/**
 * Writes an invoice or proforma with its lines and VAT summary (per category, rounded once),
 * and posts the invoice journal: debit receivables, credit revenue and VAT payable. The F/P
 * number comes from the same transaction, so a failed insert leaves no gap.
 */
export async function writeInvoice(
  trx: Kysely<ApltDatabase>,
  kind: InvoiceKind,
  customer: CustomerRow,
  draftLines: DraftLine[],
  opts: {
    issue_date?: string;
    payment_term_days?: number;
    order?: Pick<OrderHeader, 'id' | 'brand_id' | 'delivered_at' | 'reference'>;
    reference?: string;
    notes?: string;
    actor: string | null;
  },
) {
  if (!draftLines.length) throw unprocessable('Nothing to invoice');
  const issueDate = opts.issue_date ?? today();
  const term = await termDays(trx, customer, opts.payment_term_days);
  const rating = zeroRating(customer);
  const lines = draftLines.map((l) => ({ ...l, ...lineVat(l.vat_rate, rating) }));
  const codes = await repo.activeVatCodes(trx);
  const codeFor = (category: string, rate: string) =>
    codes.find((c) => c.category === category && D(c.rate).eq(rate))?.id ?? null;
  for (const l of lines)
    l.vat_code_id = codeFor(l.vat_category, l.vat_rate) ?? (rating ? null : (l.vat_code_id ?? null));
  const summary = vatSummary(lines);
  const net = sum(summary.map((r) => r.taxable_amount));
  const vat = sum(summary.map((r) => r.vat_amount));
  if (net.isNegative()) throw unprocessable('An invoice cannot have a negative amount; use a credit note');
  const prefix = kind === 'invoice' ? 'F' : 'P';
  const header = await repo.insertInvoiceHeader(trx, {
    invoice_number: provisionalNumber(prefix),
    document_type: kind,
    order_id: opts.order?.id ?? null,
    customer_id: customer.id,
    brand_id: opts.order?.brand_id ?? customer.brand_id ?? (await findDefaultBrandId(trx)) ?? null,
    issue_date: issueDate,
    due_date: addDays(issueDate, term.days),
    delivery_date: isoDate(opts.order?.delivered_at) ?? null,
    payment_term_id: term.termId,
    payment_term_days: term.days,
    reference: opts.reference ?? opts.order?.reference ?? null,
    customer_email: customer.email,
    customer_name: customerName(customer),
    customer_company: customer.company,
    customer_vat_number: customer.vat_number,
    customer_country: customer.country,
    billing_address: JSON.stringify(customerAddress(customer)),
    language: customer.language,
    subtotal: money(net),
    vat_total: money(vat),
    total: money(net.plus(vat)),
    reverse_charge: rating?.category === 'AE',
    vat_note: rating?.note ?? null,
    notes: opts.notes ?? null,
    created_by: opts.actor,
  });
  await repo.insertInvoiceLines(
    trx,
    lines.map((l, i) => ({
      ...l,
      invoice_id: header.id,
      line_no: i + 1,
      metadata: JSON.stringify(l.metadata ?? {}),
    })),
  );
  await repo.insertVatSummary(
    trx,
    summary.map((r) => ({
      ...r,
      vat_code_id: codeFor(r.vat_category, r.vat_rate),
      invoice_id: header.id,
      exemption_reason: exemptionReason(r.vat_category),
    })),
  );
  // The number is taken last: the counter row stays locked only for the final statements.
  const number = await allocateNumber(trx, prefix, Number(issueDate.slice(0, 4)));
  await repo.updateInvoiceHeader(trx, header.id, { invoice_number: number });
  header.invoice_number = number;
  if (kind === 'invoice') {
    await post(
      trx,
      {
        entry_date: issueDate,
        description: `Factuur ${number}`,
        source_type: 'invoice',
        source_id: header.id,
        created_by: opts.actor,
      },
      [
        { account: 'receivables', side: 'debit', amount: header.total },
        { account: 'revenue', side: 'credit', amount: header.subtotal },
        { account: 'vat_payable', side: 'credit', amount: header.vat_total },
      ],
      customer.id,
    );
  }
  return header;
}

async function requireCustomer(
  trx: Kysely<ApltDatabase>,
  id: number | null | undefined,
): Promise<CustomerRow> {
  if (id == null) throw unprocessable('An invoice needs a customer (customer_id)');
  const c = await findCustomer(trx, id);
  if (!c) throw unprocessable(`customer ${id} does not exist`);
  return c;
}

/**
 * Invoices what is not yet invoiced of an order (all of it, or the given quantities per order
 * line). A proforma copies the same lines but invoices nothing and books nothing.
 */
export async function invoiceOrder(
  db: Kysely<ApltDatabase>,
  input: {
    order_id: number;
    document_type: InvoiceKind;
    lines?: Array<{ order_line_id: number; quantity: number }>;
    issue_date?: string;
    payment_term_days?: number;
    notes?: string;
  },
  actor: string | null,
) {
  return db
    .transaction()
    .execute(async (trx) => {
      const order = await orders.findOrderHeader(trx, input.order_id, true);
      if (!order) throw notFound(`Order ${input.order_id} not found`);
      if (order.status === 'cancelled') throw conflict(`Order ${order.order_number} is cancelled`);
      const customer = await requireCustomer(trx, order.customer_id);
      const orderLines = await orders.findOrderLines(trx, [input.order_id]);
      const wanted = new Map((input.lines ?? []).map((l) => [String(l.order_line_id), l.quantity]));
      for (const id of wanted.keys())
        if (!orderLines.some((l) => String(l.id) === id))
          throw unprocessable(`order line ${id} is not on order ${order.order_number}`);
      const drafts: DraftLine[] = [];
      for (const l of orderLines) {
        const remaining = l.quantity - l.invoiced_quantity;
        const qty = input.lines ? (wanted.get(String(l.id)) ?? 0) : remaining;
        if (qty <= 0) continue;
        if (input.document_type === 'invoice' && qty > remaining) {
          throw conflict(`order line ${l.id}: ${qty} requested but only ${remaining} left to invoice`, {
            order_line_id: Number(l.id),
            remaining,
          });
        }
        const amount =
          qty === l.quantity
            ? String(l.line_total)
            : money(lineAmount(qty, l.unit_price, l.print_unit_price, l.discount_percent));
        drafts.push({
          order_line_id: l.id,
          ...copiedLineFields(l, qty),
          line_total: amount,
          metadata: l.metadata,
        });
        if (input.document_type === 'invoice') await orders.addInvoicedQuantity(trx, l.id, qty);
      }
      if (!drafts.length) throw conflict(`Order ${order.order_number} has nothing left to invoice`);
      const header = await writeInvoice(trx, input.document_type, customer, drafts, {
        ...input,
        order,
        actor,
      });
      await insertRelation(trx, {
        source_type: 'order',
        source_id: order.id,
        target_type: input.document_type,
        target_id: header.id,
        relation_type: input.document_type === 'invoice' ? 'invoiced' : 'proforma',
        created_by: actor,
      });
      return header.id;
    })
    .then((id) => loadInvoice(db, id));
}

/** An invoice (or proforma) without an order: lines priced like quotation lines. */
export async function invoiceDirect(
  db: Kysely<ApltDatabase>,
  input: {
    customer_id: number;
    document_type: InvoiceKind;
    lines: LineInput[];
    issue_date?: string;
    payment_term_days?: number;
    reference?: string;
    notes?: string;
  },
  actor: string | null,
) {
  return db
    .transaction()
    .execute(async (trx) => {
      const customer = await requireCustomer(trx, input.customer_id);
      const resolved = await resolveLines(trx, input.lines, input.issue_date ?? today());
      const drafts: DraftLine[] = resolved.flatMap((l) => {
        const { setup_costs, technique_id: _t, logo_transaction_id: _l, ...line } = l;
        return [
          line,
          ...setup_costs.map((s) => ({
            line_type: 'setup',
            description: s.description,
            quantity: s.quantity,
            unit_price: s.unit_cost,
            discount_percent: '0',
            print_unit_price: '0',
            vat_rate: s.vat_rate ?? STANDARD_VAT_RATE,
            line_total: s.total,
          })),
        ];
      });
      const header = await writeInvoice(trx, input.document_type, customer, drafts, { ...input, actor });
      return header.id;
    })
    .then((id) => loadInvoice(db, id));
}

/** What the state of an invoice follows from (a header, or a summary row of one). */
export interface InvoiceAmounts {
  total: Decimal.Value | null;
  credited_total: Decimal.Value | null;
  paid_total: Decimal.Value | null;
  document_type?: string | null;
  due_date: string | Date | null;
}

/**
 * Balance and status as of a date: outstanding = total - credited - paid (never below 0);
 * paid when nothing is outstanding, overdue when something is and the due date has passed.
 * A fully credited, unpaid invoice is 'cancelled'.
 */
export function invoiceState(h: InvoiceAmounts, asOf: string = today()) {
  const outstanding = D(h.total).minus(D(h.credited_total)).minus(D(h.paid_total));
  const balance = outstanding.isNegative() ? D(0) : outstanding;
  let status: string;
  if (h.document_type === 'credit_note') status = 'paid';
  else if (balance.isZero()) status = D(h.paid_total).isZero() && D(h.total).gt(0) ? 'cancelled' : 'paid';
  else status = isoDate(h.due_date)! < asOf ? 'overdue' : 'open';
  if (h.document_type === 'proforma') status = 'open';
  return { status, balance: money(balance) };
}

export function normaliseInvoice<
  H extends InvoiceAmounts & Pick<InvoiceHeader, 'issue_date' | 'delivery_date' | 'status'>,
>(h: H, asOf?: string) {
  const s = invoiceState(h, asOf);
  return {
    ...h,
    issue_date: isoDate(h.issue_date),
    due_date: isoDate(h.due_date),
    delivery_date: isoDate(h.delivery_date),
    status: s.status,
    stored_status: h.status,
    balance: s.balance,
  };
}

export async function loadInvoice(db: Kysely<ApltDatabase>, id: number) {
  const doc = await repo.loadInvoiceDocument(db, id);
  if (!doc) throw notFound(`Invoice ${id} not found`);
  return {
    ...normaliseInvoice(doc.header),
    lines: doc.lines,
    vat_summary: doc.vat_summary,
    credited_invoice: doc.credited_invoice,
  };
}

/**
 * An invoice or credit note for the admin's detail page: with the money that reached it
 * (allocations, each with its payment) and the credit notes written against it.
 */
export async function loadInvoiceDetail(db: Kysely<ApltDatabase>, id: number) {
  const invoice = await loadInvoice(db, id);
  const [allocations, creditNotes] = await Promise.all([
    repo.allocationsOfInvoice(db, id),
    invoice.document_type === 'invoice' ? repo.creditNotesOfInvoice(db, id) : Promise.resolve([]),
  ]);
  return {
    ...invoice,
    allocations: allocations.map((a) => ({
      ...a,
      id: Number(a.id),
      payment_id: a.payment_id === null ? null : Number(a.payment_id),
      unapplied_credit_id: a.unapplied_credit_id === null ? null : Number(a.unapplied_credit_id),
    })),
    credit_notes: creditNotes.map((c) => ({ ...c, id: Number(c.id) })),
  };
}

/** A page of invoices (or credit notes) with lines and VAT summary, and the number of all that match. */
export async function listInvoices(db: Kysely<ApltDatabase>, f: repo.InvoiceFilter) {
  const { rows: headers, count } = await repo.listInvoiceHeaders(db, { asOf: today(), ...f });
  const rows = headers.map((h) => normaliseInvoice(h));
  const ids = rows.map((r) => r.id);
  const [lines, vat] = await Promise.all([repo.findInvoiceLines(db, ids), repo.findVatSummaries(db, ids)]);
  return {
    data: rows.map((r) => ({
      ...r,
      lines: lines.filter((l) => l.invoice_id === r.id),
      vat_summary: vat.filter((v) => v.invoice_id === r.id),
    })),
    count,
  };
}

/** Keeps the stored status column in step with the balance (overdue is derived on read). */
export async function refreshStoredStatus(db: Kysely<ApltDatabase>, id: number) {
  const h = (await repo.findInvoiceHeader(db, id))!;
  const { status } = invoiceState(h, '0000-01-01');
  const stored = status === 'paid' || status === 'cancelled' ? status : 'open';
  await repo.updateInvoiceHeader(db, id, {
    status: stored,
    paid_at: stored === 'paid' ? (h.paid_at ?? new Date()) : null,
  });
}

/** Only a proforma may be deleted; invoices are gapless and corrected by credit notes. */
export async function removeInvoice(db: Kysely<ApltDatabase>, id: number) {
  const h = await repo.findInvoiceHeader(db, id);
  if (!h) throw notFound(`Invoice ${id} not found`);
  if (h.document_type !== 'proforma')
    throw conflict(`${h.invoice_number} is a booked ${h.document_type}; correct it with a credit note`);
  await db.transaction().execute(async (trx) => {
    await deleteRelationsTo(trx, 'proforma', id);
    await repo.deleteInvoice(trx, id);
  });
}

/** Fields that may change after issuing (the amounts never do). */
export async function updateInvoice(
  db: Kysely<ApltDatabase>,
  id: number,
  patch: { notes?: string; reference?: string; metadata?: Record<string, unknown>; sent_at?: string },
) {
  const h = await repo.findInvoiceHeader(db, id);
  if (!h) throw notFound(`Invoice ${id} not found`);
  const set: Updateable<ApltDatabase['aplt_invoice_headers']> = {};
  if (patch.notes !== undefined) set.notes = patch.notes;
  if (patch.reference !== undefined) set.reference = patch.reference;
  if (patch.sent_at !== undefined) set.sent_at = patch.sent_at;
  if (patch.metadata) set.metadata = JSON.stringify({ ...jsonObject(h.metadata), ...patch.metadata });
  if (Object.keys(set).length) await repo.updateInvoiceHeader(db, id, set);
  return loadInvoice(db, id);
}
