import { addDays, daysBetween, isoDate, today } from '../shared/context';

/*
 * What a customer sees of a document: the fields listed here and nothing else. Staff fields
 * (internal notes, created_by, metadata, stored PDF paths) never leave through the store API,
 * whatever columns the tables grow later.
 */

type Row = Record<string, any>;

const pick = (row: Row, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k] === undefined ? null : row[k]]));
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

export function lineView(l: Row) {
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

/**
 * A quotation stays valid through its valid_until day (the expiry job moves it the day after),
 * so it expires at the start of the next day, UTC, the calendar the documents are dated in.
 */
export function quotationView(q: Row, asOf: string = today()) {
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
    lines: (q.lines ?? []).map((l: Row) => ({
      ...lineView(l),
      setup_costs: (l.setup_costs ?? []).map((s: Row) => ({
        description: s.description,
        quantity: s.quantity,
        unit_cost: s.unit_cost,
        total: s.total,
      })),
    })),
  };
}

/** Only a web address is a tracking link; anything else staff typed stays out of a storefront's href. */
function trackingUrl(metadata: Row | null | undefined): string | null {
  const v = metadata?.tracking_url;
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function orderView(o: Row, lines: Row[]) {
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

export function invoiceView(i: Row, lines: Row[], vat: Row[]) {
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

export function returnView(r: Row, lines: Row[], photos: Row[]) {
  return {
    id: Number(r.id),
    return_number: r.return_number,
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
