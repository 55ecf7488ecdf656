import { z } from 'zod';
import { dateInput } from '../shared/inputs';

/* Report routes' query rules. Browser-safe (zod only): the admin panel's period pickers share them. */

export const reportPeriods = ['month', 'quarter', 'year'] as const;

/** `from`..`to` (default: 1 January of `to`'s year .. today), grouped per period. */
export const periodQuery = z.object({
  from: dateInput.optional(),
  to: dateInput.optional(),
  period: z.enum(reportPeriods).default('month'),
});

export const asOfQuery = z.object({ as_of: dateInput.optional() });

/**
 * Aged receivables: invoices whose due date has not passed (due today included) in their own
 * bucket, the others by days past the due date. The buckets add up to the total.
 */
export const agingBuckets = ['not_yet_due', '0-30', '31-60', '61-90', '90+'] as const;

/** GET /admin/aplt/reports: the reports there are, their paths and query parameters. */
export const reportIndex = z.object({
  reports: z.array(
    z.object({
      name: z.string(),
      path: z.string(),
      method: z.literal('GET'),
      description: z.string(),
      parameters: z.array(
        z.object({
          name: z.string(),
          type: z.string(),
          values: z.array(z.string()).optional(),
          required: z.boolean(),
          default: z.string().nullable(),
        }),
      ),
    }),
  ),
});
