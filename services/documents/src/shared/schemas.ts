import { errorBody } from '@aplt/http';
import { z } from 'zod';

/** Decimal input: a JSON string like "12.99" (preferred) or a number; never stored as a float. */
export const decimalInput = z
  .union([z.string().regex(/^-?\d+(\.\d{1,4})?$/, 'expected a decimal like 12.99'), z.number().finite()])
  .transform((v) => String(v))
  .refine((v) => /^-?\d+(\.\d{1,4})?$/.test(v), 'at most 4 decimals');

export const positiveAmount = decimalInput.refine((v) => Number(v) > 0, 'must be greater than 0');

export const dateInput = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const idQuery = z.object({ id: z.coerce.number().int().positive() });

export const idBody = z.object({ id: z.coerce.number().int().positive() });

/** Response shapes are open objects: rows carry every column the schema has. */
export const anyObject = z.object({}).catchall(z.unknown());
export const listOf = z.object({ data: z.array(anyObject), count: z.number() });

/** Every route documents the fleet's one error body for the statuses it can answer with. */
export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
};
