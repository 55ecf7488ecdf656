import { type DocumentLine, type Page, pageQuery, type Totals } from './documents';
import { storeJson, storeRaw } from './store-api';

export const invoiceStatuses = ['open', 'paid', 'overdue', 'cancelled'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export interface Invoice extends Totals {
  id: number;
  invoice_number: string;
  document_type: 'invoice' | 'credit_note' | string;
  status: InvoiceStatus;
  balance: string | null;
  order_id: number | null;
  issue_date: string | null;
  due_date: string | null;
  reference: string | null;
  lines: Array<DocumentLine & { credited_quantity: number }>;
}

export function listInvoices(
  page: number,
  filter: { status?: InvoiceStatus | undefined; year?: number | undefined } = {},
): Promise<Page<Invoice>> {
  return storeJson('/store/aplt/invoices', { query: { ...filter, ...pageQuery(page) } });
}

export const getInvoice = (id: number) => storeJson<Invoice>(`/store/aplt/invoices/${id}`);

/** The PDF as the API sends it: the admin's persisted file, byte for byte. */
export const invoicePdf = (id: number) => storeRaw(`/store/aplt/invoices/pdf?id=${id}`);
