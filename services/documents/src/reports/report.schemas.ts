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

/** Aged receivables: days past the due date per bucket (not yet due counts in 0-30). */
export const agingBuckets = ['0-30', '31-60', '61-90', '90+'] as const;
