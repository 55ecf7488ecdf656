import { z } from 'zod';
import { dateInput, positiveId } from '../shared/inputs';
import { pageQuery, recordId, searchQuery } from '../shared/paging';

/*
 * Subscription and billing-run inputs. Browser-safe (zod only): the admin panel checks its
 * subscription form with these schemas before sending.
 */

export const billingIntervals = ['monthly', 'quarterly', 'yearly'] as const;
export type BillingInterval = (typeof billingIntervals)[number];

/** Derived on read: paused wins, then ended (end date passed), scheduled (not started), active. */
export const subscriptionStatuses = ['active', 'scheduled', 'paused', 'ended'] as const;

export const MAX_SUBSCRIPTION_LINES = 50;

/** A calendar date that exists (2026-02-30 is refused, not rolled over). */
const realDate = dateInput.refine((v) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '2000-01-01';
}, 'expected an existing date from 2000 on (YYYY-MM-DD)');

/** A price per unit: up to 10 digits and 4 decimals, never negative (a string like "49.50"). */
const unitPrice = z
  .union([z.string().trim(), z.number().finite()])
  .transform((v) => String(v))
  .refine((v) => /^\d{1,10}(\.\d{1,4})?$/.test(v), 'expected an amount like 49.50 (at most 4 decimals)');

const percent = z
  .union([z.string().trim(), z.number().finite()])
  .transform((v) => String(v))
  .refine(
    (v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100,
    'expected a percentage from 0 to 100 (at most 2 decimals)',
  );

export const subscriptionLineInput = z
  .object({
    line_type: z.enum(['product', 'other']).default('other'),
    product_id: positiveId.optional(),
    sku: z.string().trim().max(100).optional(),
    description: z.string().trim().min(1).max(500),
    quantity: z.number().int().min(1).max(1_000_000).default(1),
    unit_price: unitPrice,
    discount_percent: percent.optional(),
    /** Omitted: the standard rate (21). Reverse charge still applies per customer on the invoice. */
    vat_rate: percent.optional(),
  })
  .strict();
export type SubscriptionLineInput = z.infer<typeof subscriptionLineInput>;

const headerFields = {
  customer_id: positiveId,
  description: z.string().trim().min(1).max(200),
  interval: z.enum(billingIntervals),
  start_date: realDate,
  end_date: realDate.nullable().optional(),
  /** Omitted or null: the customer's payment term. */
  payment_term_days: z.number().int().min(0).max(60).nullable().optional(),
  reference: z.string().trim().max(200).nullable().optional(),
  notes: z.string().max(5000).nullable().optional(),
  lines: z.array(subscriptionLineInput).min(1).max(MAX_SUBSCRIPTION_LINES),
};

const endNotBeforeStart = (v: { start_date?: string; end_date?: string | null }) =>
  !v.start_date || !v.end_date || v.end_date >= v.start_date;

export const createSubscriptionBody = z
  .object({ ...headerFields, paused: z.boolean().optional() })
  .strict()
  .refine(endNotBeforeStart, { message: 'end_date must not be before start_date', path: ['end_date'] });
export type CreateSubscriptionInput = z.input<typeof createSubscriptionBody>;
export type CreateSubscriptionData = z.output<typeof createSubscriptionBody>;

/** Every field optional; `lines` replaces all lines; `paused` pauses or resumes. */
export const updateSubscriptionBody = z
  .object({
    customer_id: headerFields.customer_id.optional(),
    description: headerFields.description.optional(),
    interval: headerFields.interval.optional(),
    start_date: headerFields.start_date.optional(),
    end_date: headerFields.end_date,
    payment_term_days: headerFields.payment_term_days,
    reference: headerFields.reference,
    notes: headerFields.notes,
    lines: headerFields.lines.optional(),
    paused: z.boolean().optional(),
  })
  .strict()
  .refine(endNotBeforeStart, { message: 'end_date must not be before start_date', path: ['end_date'] });
export type UpdateSubscriptionInput = z.input<typeof updateSubscriptionBody>;
export type UpdateSubscriptionData = z.output<typeof updateSubscriptionBody>;

export const listSubscriptionsQuery = pageQuery.extend({
  status: z.enum(subscriptionStatuses).optional(),
  customer_id: positiveId.optional(),
  /** Description, reference, customer company, name or e-mail (contains, case-insensitive). */
  q: searchQuery,
});

export const subscriptionIdParam = z.object({ id: recordId });

/** Runs the billing as of `date` (staff: catch-up of a missed run, or a run ahead of the 1st). */
export const runBillingBody = z.object({ date: realDate }).strict();

export const billingSettingsBody = z.object({ billing_enabled: z.boolean() }).strict();

export const listRunsQuery = pageQuery;
