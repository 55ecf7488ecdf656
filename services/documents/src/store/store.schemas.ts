import { errorBody } from '@aplt/http';
import { z } from 'zod';

/*
 * Shapes shared by the customer routes of the store API. Ids are bigint in the database: a number
 * beyond JavaScript's safe range is no id at all (400), never a database error.
 */

export const storeId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const storeIdParam = z.object({ id: storeId });
export const storeIdQuery = z.object({ id: storeId });

/** The spec's page of customer orders: 20. Other customer lists page the same way. */
export const STORE_PAGE_SIZE = 20;
export const storePage = {
  limit: z.coerce.number().int().min(1).max(STORE_PAGE_SIZE).default(STORE_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

/** `count` is the number of matching records, not of this page. */
export const storePageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });

/** Open records: the views list their fields (see customer-views.ts); the schema documents the envelope. */
export const storeRecord = z.object({}).catchall(z.unknown());

export const storeErrors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  413: errorBody,
  415: errorBody,
  422: errorBody,
  429: errorBody,
  503: errorBody,
};
