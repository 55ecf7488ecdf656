import { z } from 'zod';

/*
 * Input rules of the document routes that the admin panel's forms share. Browser-safe (zod only):
 * nothing here may import the HTTP layer or the database.
 */

/** Decimal input: a JSON string like "12.99" (preferred) or a number; never stored as a float. */
export const decimalInput = z
  .union([z.string().regex(/^-?\d+(\.\d{1,4})?$/, 'expected a decimal like 12.99'), z.number().finite()])
  .transform((v) => String(v))
  .refine((v) => /^-?\d+(\.\d{1,4})?$/.test(v), 'at most 4 decimals');

export const positiveAmount = decimalInput.refine((v) => Number(v) > 0, 'must be greater than 0');

export const dateInput = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/** A positive row id in a body or query. */
export const positiveId = z.coerce.number().int().positive();
