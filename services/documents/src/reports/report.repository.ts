import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

/** Invoices issued on or before as_of with their balance AS OF that date (later credits/payments ignored). */
export async function receivablesAsOf(db: Kysely<ApltDatabase>, asOf: string) {
  const rows = await sql<{
    id: number;
    invoice_number: string;
    customer_id: number;
    customer: string | null;
    issue_date: string;
    due_date: string;
    total: string;
    outstanding: string;
  }>`
    SELECT h.id, h.invoice_number, h.customer_id, coalesce(h.customer_company, h.customer_name) AS customer,
           h.issue_date::text AS issue_date, h.due_date::text AS due_date, h.total,
           h.total
             - coalesce((SELECT sum(c.total) FROM aplt_invoice_headers c
                          WHERE c.credited_invoice_id = h.id AND c.issue_date <= ${asOf}::date), 0)
             - coalesce((SELECT sum(a.amount) FROM aplt_payment_allocations a
                          LEFT JOIN aplt_payments p ON p.id = a.payment_id
                          WHERE a.invoice_id = h.id AND coalesce(p.payment_date, a.allocated_at::date) <= ${asOf}::date), 0)
             AS outstanding
      FROM aplt_invoice_headers h
     WHERE h.document_type = 'invoice' AND h.issue_date <= ${asOf}::date
     ORDER BY h.due_date, h.id`.execute(db);
  return rows.rows;
}

export type Period = 'month' | 'quarter' | 'year';

/** Net revenue (excl. VAT) per period: invoices minus credit notes, by issue date. Proformas never count. */
export async function revenueByPeriod(db: Kysely<ApltDatabase>, from: string, to: string, period: Period) {
  const rows = await sql<{
    period: string;
    invoiced: string;
    credited: string;
    net_revenue: string;
    invoices: number;
    credit_notes: number;
  }>`
    SELECT to_char(date_trunc(${period}, issue_date), 'YYYY-MM-DD') AS period,
           sum(CASE WHEN document_type = 'invoice' THEN subtotal ELSE 0 END) AS invoiced,
           sum(CASE WHEN document_type = 'credit_note' THEN subtotal ELSE 0 END) AS credited,
           sum(CASE WHEN document_type = 'invoice' THEN subtotal ELSE -subtotal END) AS net_revenue,
           count(*) FILTER (WHERE document_type = 'invoice')::int AS invoices,
           count(*) FILTER (WHERE document_type = 'credit_note')::int AS credit_notes
      FROM aplt_invoice_headers
     WHERE document_type IN ('invoice', 'credit_note') AND issue_date BETWEEN ${from}::date AND ${to}::date
     GROUP BY 1 ORDER BY 1`.execute(db);
  return rows.rows;
}

/** VAT per period, category and rate (credit notes negative), from the per-invoice VAT summaries. */
export async function vatByPeriod(db: Kysely<ApltDatabase>, from: string, to: string, period: Period) {
  const rows = await sql<{
    period: string;
    vat_category: string;
    vat_rate: string;
    taxable_amount: string;
    vat_amount: string;
  }>`
    SELECT to_char(date_trunc(${period}, h.issue_date), 'YYYY-MM-DD') AS period, s.vat_category, s.vat_rate,
           sum(CASE WHEN h.document_type = 'invoice' THEN s.taxable_amount ELSE -s.taxable_amount END) AS taxable_amount,
           sum(CASE WHEN h.document_type = 'invoice' THEN s.vat_amount ELSE -s.vat_amount END) AS vat_amount
      FROM aplt_invoice_vat_summary s
      JOIN aplt_invoice_headers h ON h.id = s.invoice_id
     WHERE h.document_type IN ('invoice', 'credit_note') AND h.issue_date BETWEEN ${from}::date AND ${to}::date
     GROUP BY 1, 2, 3 ORDER BY 1, 3 DESC, 2`.execute(db);
  return rows.rows;
}

export async function quotationStats(db: Kysely<ApltDatabase>, from: string, to: string, asOf: string) {
  const rows = await sql<{ open_value: string; open_count: number; created: number; accepted: number }>`
    SELECT coalesce(sum(total) FILTER (WHERE status = 'open' AND valid_until >= ${asOf}::date), 0) AS open_value,
           count(*) FILTER (WHERE status = 'open' AND valid_until >= ${asOf}::date)::int AS open_count,
           count(*) FILTER (WHERE quotation_date BETWEEN ${from}::date AND ${to}::date)::int AS created,
           count(*) FILTER (WHERE quotation_date BETWEEN ${from}::date AND ${to}::date AND status = 'accepted')::int AS accepted
      FROM aplt_quotation_headers`.execute(db);
  // An aggregate without GROUP BY always answers one row.
  return rows.rows[0]!;
}
