import { z } from 'zod';
import { dateInput, positiveAmount, positiveId } from '../shared/inputs';

/*
 * Payment routes' input rules. Browser-safe (zod only): the admin panel's "register a payment"
 * form validates with these schemas before sending.
 */

export const paymentMethods = [
  'bank_transfer',
  'ideal',
  'card',
  'cash',
  'direct_debit',
  'paypal',
  'other',
] as const;

export const paymentBody = z.object({
  customer_id: positiveId,
  amount: positiveAmount,
  payment_date: dateInput.optional(),
  method: z.enum(paymentMethods).optional(),
  reference: z.string().max(200).optional(),
  bank_account: z.string().max(64).optional(),
  notes: z.string().max(2000).optional(),
  /** Spread over invoices; at most the payment in all (422) and each invoice's balance (409). */
  allocations: z
    .array(z.object({ invoice_id: positiveId, amount: positiveAmount }))
    .max(200)
    .optional(),
});
export type PaymentInput = z.input<typeof paymentBody>;

export const allocateCreditBody = z.object({ invoice_id: positiveId, amount: positiveAmount.optional() });

export const listPaymentsQuery = z.object({
  customer_id: positiveId.optional(),
  /** Payment number, reference or the customer's company, name or e-mail (contains). */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PaymentFilter = z.infer<typeof listPaymentsQuery>;
