import type { DocumentLine, Totals } from './documents';
import { storeJson } from './store-api';

export const quotationStatuses = ['open', 'accepted', 'expired', 'rejected'] as const;
export type QuotationStatus = (typeof quotationStatuses)[number];

export interface Quotation extends Totals {
  id: number;
  quotation_number: string;
  status: QuotationStatus;
  quotation_date: string | null;
  valid_until: string | null;
  expires_in_days: number | null;
  /** Open and expiring within 3 days (spec 1: the banner). */
  expiring_soon: boolean;
  title: string | null;
  reference: string | null;
  notes: string | null;
  terms: string | null;
  rejection_reason: string | null;
  setup_cost_total: string | null;
  lines: DocumentLine[];
}

export function listQuotes(status?: QuotationStatus): Promise<{ data: Quotation[]; count: number }> {
  return storeJson('/store/aplt/quotes', { query: { status } });
}

export const getQuote = (id: number) => storeJson<Quotation>(`/store/aplt/quotes/${id}`);

export function acceptQuote(id: number): Promise<{ order_id: number; order_number: string }> {
  return storeJson(`/store/aplt/quotes/${id}/accept`, { method: 'POST' });
}

export async function rejectQuote(id: number, reason: string): Promise<void> {
  await storeJson(`/store/aplt/quotes/${id}/reject`, { method: 'POST', body: { reason } });
}
