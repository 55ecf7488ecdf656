import { errorBody } from '@aplt/http';
import { z } from 'zod';

export { dateInput, decimalInput, positiveAmount } from './inputs';

export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const idQuery = z.object({ id: z.coerce.number().int().positive() });

export const idBody = z.object({ id: z.coerce.number().int().positive() });

/** Response shapes are open objects: rows carry every column the schema has. */
export const anyObject = z.object({}).catchall(z.unknown());
export const listOf = z.object({ data: z.array(anyObject), count: z.number() });
/** A server-paged admin list: `count` is the number of matching rows, not of this page. */
export const pagedList = z.object({
  data: z.array(anyObject),
  count: z.number(),
  limit: z.number(),
  offset: z.number(),
});

/** Every route documents the fleet's one error body for the statuses it can answer with. */
export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
};
