import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import type { DocumentLine, Page } from './quotations';
import { useAdminQuery } from './use-admin-query';

/* Invoices (`/admin/aplt/invoices`, documents service, feature `invoices`). */

/** The list's filter: the derived status, or `outstanding` (open and overdue: a balance left). */
export const invoiceStatuses = ['open', 'overdue', 'paid', 'cancelled'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export interface InvoiceLine extends DocumentLine {
  invoice_id: number;
  order_line_id: number | null;
  credited_line_id: number | null;
  credited_quantity: number;
  vat_category: string;
}

export interface VatSummaryRow {
  vat_category: string;
  vat_rate: string;
  taxable_amount: string;
  vat_amount: string;
  exemption_reason: string | null;
}

export interface InvoiceAllocation {
  id: number;
  amount: string;
  allocated_at: string;
  payment_id: number | null;
  payment_number: string | null;
  payment_date: string | null;
  method: string | null;
  unapplied_credit_id: number | null;
  credit_source_type: string | null;
}

export interface InvoiceCreditNote {
  id: number;
  invoice_number: string;
  issue_date: string;
  subtotal: string;
  vat_total: string;
  total: string;
  credit_reason: string | null;
}

export interface Invoice {
  id: number;
  invoice_number: string;
  document_type: 'invoice' | 'proforma' | 'credit_note';
  credited_invoice_id: number | null;
  order_id: number | null;
  customer_id: number;
  status: InvoiceStatus;
  issue_date: string;
  due_date: string;
  reference: string | null;
  customer_email: string | null;
  customer_name: string | null;
  customer_company: string | null;
  customer_vat_number: string | null;
  customer_country: string | null;
  subtotal: string;
  vat_total: string;
  total: string;
  credited_total: string;
  paid_total: string;
  balance: string;
  reverse_charge: boolean;
  vat_note: string | null;
  credit_reason: string | null;
  notes: string | null;
  payment_term_days: number;
  created_at: string;
  lines: InvoiceLine[];
  vat_summary: VatSummaryRow[];
  credited_invoice?: { id: number; invoice_number: string; issue_date: string } | null;
  /** Detail only: money that reached the invoice, and its credit notes. */
  allocations?: InvoiceAllocation[];
  credit_notes?: InvoiceCreditNote[];
}

export type InvoiceQuery = {
  limit: number;
  offset: number;
  q?: string;
  status?: string;
  customer_id?: string | number;
  order_id?: string | number;
};

export const invoicesQueryKeys = queryKeysFactory('invoices');

export const useInvoices = (query: InvoiceQuery, options: { enabled?: boolean } = {}) =>
  useAdminQuery<Page<Invoice>>('/admin/aplt/invoices', query, {
    queryKey: invoicesQueryKeys.list(query),
    placeholderData: keepPreviousData,
    ...options,
  });

export const useInvoice = (id: string | number) =>
  useAdminQuery<Invoice>(`/admin/aplt/invoices/${id}`, undefined, { queryKey: invoicesQueryKeys.detail(id) });
