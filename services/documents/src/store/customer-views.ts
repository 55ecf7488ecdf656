import type { ApltDatabase, Selectable } from '@aplt/db';
import { addDays, daysBetween, isoDate, today } from '../shared/context';
import { type Json, jsonObject } from '../shared/json';

/*
 * What a customer sees of a document: the fields listed here and nothing else. Staff fields
 * (internal notes, created_by, metadata, stored PDF paths) never leave through the store API,
 * whatever columns the tables grow later.
 */

type Table<K extends keyof ApltDatabase> = Selectable<ApltDatabase[K]>;

/** The named fields of the row, absent ones as null. */
const pick = <R, K extends keyof R>(row: R, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k] === undefined ? null : row[k]])) as {
    [P in K]: Exclude<R[P], undefined> | null;
  };
const num = (v: unknown) => (v == null ? null : Number(v));

/** Quotations show a banner this many days before they expire (spec 1, limits). */
export const EXPIRY_BANNER_DAYS = 3;

const LINE_FIELDS = [
  'line_no',
  'line_type',
  'sku',
  'description',
  'quantity',
  'unit_price',
  'discount_percent',
  'technique_name',
  'print_position',
  'print_area',
  'print_colours',
  'print_unit_price',
  'vat_rate',
  'line_total',
] as const;

/** A quotation, order or invoice line: they share these columns. */
type Line = Pick<Table<'aplt_invoice_lines'>, 'id' | (typeof LINE_FIELDS)[number]>;

export function lineView(l: Line) {
  return { id: Number(l.id), ...pick(l, LINE_FIELDS) };
}

const TOTALS = [
  'currency',
  'subtotal',
  'setup_cost_total',
  'discount_total',
  'shipping_cost',
  'vat_total',
  'total',
] as const;

type Totals = Pick<Table<'aplt_quotation_headers'>, (typeof TOTALS)[number]>;

/** A quotation as attachLines gives it: dates as YYYY-MM-DD, lines with their setup costs. */
type QuotationForView = Totals &
  Pick<
    Table<'aplt_quotation_headers'>,
    | 'id'
    | 'quotation_number'
    | 'status'
    | 'source_code'
    | 'title'
    | 'reference'
    | 'customer_email'
    | 'customer_name'
    | 'customer_company'
    | 'terms'
    | 'notes'
    | 'rejection_reason'
    | 'accepted_at'
    | 'rejected_at'
  > & {
    quotation_date: string | null;
    valid_until: string | null;
    lines?: Array<
      Line & {
        setup_costs?: Array<
          Pick<Table<'aplt_quotation_line_setup_costs'>, 'description' | 'quantity' | 'unit_cost' | 'total'>
        >;
      }
    >;
  };

/**
 * A quotation stays valid through its valid_until day (the expiry job moves it the day after),
 * so it expires at the start of the next day, UTC, the calendar the documents are dated in.
 */
export function quotationView(q: QuotationForView, asOf: string = today()) {
  const validUntil = isoDate(q.valid_until);
  const daysLeft = validUntil ? daysBetween(asOf, validUntil) : null;
  return {
    id: Number(q.id),
    quotation_number: q.quotation_number,
    status: q.status,
    source_code: q.source_code,
    quotation_date: isoDate(q.quotation_date),
    valid_until: validUntil,
    expires_at: validUntil ? `${addDays(validUntil, 1)}T00:00:00.000Z` : null,
    expires_in_days: q.status === 'open' ? daysLeft : null,
    expiring_soon:
      q.status === 'open' && daysLeft !== null && daysLeft >= 0 && daysLeft <= EXPIRY_BANNER_DAYS,
    title: q.title ?? null,
    reference: q.reference ?? null,
    customer_email: q.customer_email ?? null,
    customer_name: q.customer_name ?? null,
    customer_company: q.customer_company ?? null,
    ...pick(q, TOTALS),
    terms: q.terms ?? null,
    notes: q.notes ?? null,
    rejection_reason: q.rejection_reason ?? null,
    accepted_at: q.accepted_at ?? null,
    rejected_at: q.rejected_at ?? null,
    lines: (q.lines ?? []).map((l) => ({
      ...lineView(l),
      setup_costs: (l.setup_costs ?? []).map((s) => ({
        description: s.description,
        quantity: s.quantity,
        unit_cost: s.unit_cost,
        total: s.total,
      })),
    })),
  };
}

/** Only a web address is a tracking link; anything else staff typed stays out of a storefront's href. */
function trackingUrl(metadata: Json | null): string | null {
  const v = jsonObject(metadata).tracking_url;
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

type OrderForView = Totals &
  Pick<
    Table<'aplt_order_headers'>,
    | 'id'
    | 'order_number'
    | 'status'
    | 'order_date'
    | 'expected_delivery_date'
    | 'metadata'
    | 'quotation_id'
    | 'reference'
    | 'customer_name'
    | 'customer_company'
    | 'shipping_address'
    | 'notes'
    | 'confirmed_at'
    | 'shipped_at'
    | 'delivered_at'
    | 'cancelled_at'
  >;

export function orderView(o: OrderForView, lines: Line[]) {
  return {
    id: Number(o.id),
    order_number: o.order_number,
    status: o.status,
    order_date: isoDate(o.order_date),
    expected_delivery_date: isoDate(o.expected_delivery_date),
    tracking_url: trackingUrl(o.metadata),
    quotation_id: num(o.quotation_id),
    reference: o.reference ?? null,
    customer_name: o.customer_name ?? null,
    customer_company: o.customer_company ?? null,
    shipping_address: o.shipping_address ?? null,
    ...pick(o, TOTALS),
    notes: o.notes ?? null,
    confirmed_at: o.confirmed_at ?? null,
    shipped_at: o.shipped_at ?? null,
    delivered_at: o.delivered_at ?? null,
    cancelled_at: o.cancelled_at ?? null,
    lines: lines.map(lineView),
  };
}

/** An invoice as normaliseInvoice gives it: the derived status and balance, dates as YYYY-MM-DD. */
type InvoiceForView = Pick<
  Table<'aplt_invoice_headers'>,
  | 'id'
  | 'invoice_number'
  | 'document_type'
  | 'customer_id'
  | 'order_id'
  | 'credited_invoice_id'
  | 'payment_term_days'
  | 'reference'
  | 'customer_name'
  | 'customer_company'
  | 'customer_vat_number'
  | 'customer_country'
  | 'billing_address'
  | 'currency'
  | 'subtotal'
  | 'vat_total'
  | 'total'
  | 'credited_total'
  | 'paid_total'
  | 'reverse_charge'
  | 'vat_note'
  | 'credit_reason'
  | 'notes'
  | 'paid_at'
> & {
  status: string;
  balance: string;
  issue_date: string | null;
  due_date: string | null;
  delivery_date: string | null;
};

export function invoiceView(
  i: InvoiceForView,
  lines: Array<Line & Pick<Table<'aplt_invoice_lines'>, 'credited_quantity'>>,
  vat: Array<Table<'aplt_invoice_vat_summary'>>,
) {
  return {
    id: Number(i.id),
    invoice_number: i.invoice_number,
    document_type: i.document_type,
    status: i.status,
    balance: i.balance,
    customer_id: num(i.customer_id),
    order_id: num(i.order_id),
    credited_invoice_id: num(i.credited_invoice_id),
    issue_date: isoDate(i.issue_date),
    due_date: isoDate(i.due_date),
    delivery_date: isoDate(i.delivery_date),
    payment_term_days: i.payment_term_days,
    reference: i.reference ?? null,
    customer_name: i.customer_name ?? null,
    customer_company: i.customer_company ?? null,
    customer_vat_number: i.customer_vat_number ?? null,
    customer_country: i.customer_country ?? null,
    billing_address: i.billing_address ?? null,
    currency: i.currency,
    subtotal: i.subtotal,
    vat_total: i.vat_total,
    total: i.total,
    credited_total: i.credited_total,
    paid_total: i.paid_total,
    reverse_charge: i.reverse_charge,
    vat_note: i.vat_note ?? null,
    credit_reason: i.credit_reason ?? null,
    notes: i.notes ?? null,
    paid_at: i.paid_at ?? null,
    pdf_url: `/store/aplt/invoices/pdf?id=${Number(i.id)}`,
    lines: lines.map((l) => ({ ...lineView(l), credited_quantity: l.credited_quantity ?? 0 })),
    vat_summary: vat.map((v) => pick(v, ['vat_category', 'vat_rate', 'taxable_amount', 'vat_amount'])),
  };
}

export type ReturnForView = Pick<
  Table<'aplt_returns'>,
  | 'id'
  | 'return_number'
  | 'status'
  | 'invoice_id'
  | 'order_id'
  | 'remark'
  | 'resolution'
  | 'created_at'
  | 'updated_at'
> & { invoice_number: string | null };

export function returnView<R extends ReturnForView>(
  r: R,
  lines: Array<
    Pick<
      Table<'aplt_return_lines'>,
      'id' | 'invoice_line_id' | 'sku' | 'description' | 'quantity' | 'reason' | 'reason_text'
    >
  >,
  photos: Array<
    Pick<Table<'aplt_return_photos'>, 'id' | 'slot' | 'content_type' | 'size_bytes' | 'width' | 'height'>
  >,
) {
  return {
    id: Number(r.id),
    // As given: a return just filed has its number.
    return_number: r.return_number as R['return_number'],
    status: r.status,
    invoice_id: num(r.invoice_id),
    invoice_number: r.invoice_number ?? null,
    order_id: num(r.order_id),
    remark: r.remark ?? null,
    resolution: r.resolution ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
    lines: lines.map((l) => ({
      id: Number(l.id),
      invoice_line_id: num(l.invoice_line_id),
      sku: l.sku ?? null,
      description: l.description ?? null,
      quantity: l.quantity,
      reason: l.reason,
      reason_text: l.reason_text ?? null,
    })),
    photos: photos.map((p) => ({
      id: Number(p.id),
      slot: p.slot,
      content_type: p.content_type,
      size_bytes: p.size_bytes,
      width: p.width ?? null,
      height: p.height ?? null,
      url: `/store/aplt/returns/${Number(r.id)}/photos/${Number(p.id)}`,
    })),
  };
}
