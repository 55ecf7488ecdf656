import { z } from 'zod';
import { lineInput } from '../quotations/quotation.schemas';
import { dateInput, positiveId } from '../shared/inputs';

/*
 * Invoice and credit-note routes' input rules. Browser-safe (zod only): the admin panel
 * validates its invoice and credit-note forms with these schemas before sending.
 */

/**
 * The list's status: the derived one (open, overdue, paid, cancelled), or `outstanding` for
 * everything with a balance left (open and overdue), e.g. the invoices a payment can settle.
 */
export const invoiceListStatuses = ['open', 'overdue', 'paid', 'cancelled', 'outstanding'] as const;

export const createInvoiceBody = z.object({
  document_type: z.enum(['invoice', 'proforma']).default('invoice'),
  order_id: positiveId.optional(),
  /** Partial invoicing of an order: quantities per order line. */
  order_lines: z
    .array(z.object({ order_line_id: positiveId, quantity: z.number().int().positive() }))
    .min(1)
    .max(500)
    .optional(),
  customer_id: positiveId.optional(),
  lines: z.array(lineInput).max(500).optional(),
  issue_date: dateInput.optional(),
  payment_term_days: z.number().int().min(0).max(60).optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
});
export type CreateInvoiceInput = z.input<typeof createInvoiceBody>;

export const updateInvoiceBody = z.object({
  notes: z.string().max(5000).optional(),
  reference: z.string().max(200).optional(),
  sent_at: z.string().datetime().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const listPaging = {
  customer_id: positiveId.optional(),
  year: z.coerce.number().int().min(2000).max(9999).optional(),
  /** Number, reference, customer company, name or e-mail (contains, case-insensitive). */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
};

export const listInvoicesQuery = z.object({
  status: z.enum(invoiceListStatuses).optional(),
  order_id: positiveId.optional(),
  document_type: z.enum(['invoice', 'proforma']).optional(),
  ...listPaging,
});

export const listCreditNotesQuery = z.object({
  invoice_id: positiveId.optional(),
  ...listPaging,
});

/** A credit note: the whole invoice (no lines) or chosen quantities of its lines. */
export const creditNoteBody = z.object({
  invoice_id: positiveId,
  lines: z
    .array(z.object({ invoice_line_id: positiveId, quantity: z.number().int().positive() }))
    .min(1)
    .max(500)
    .optional(),
  reason: z.string().trim().min(1).max(2000),
  issue_date: dateInput.optional(),
});
export type CreditNoteInput = z.input<typeof creditNoteBody>;
