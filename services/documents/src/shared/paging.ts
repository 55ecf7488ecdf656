import { z } from 'zod';

/*
 * Server-side paging of the admin lists: `limit` (1-100, default 20) and `offset`, answered as
 * `{data, count, limit, offset}` where `count` is the number of matching rows, not of this page.
 * Browser-safe (zod only), so the admin panel can share the rules.
 */

export const MAX_PAGE_SIZE = 100;

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Free-text search of a list: trimmed, at most 200 characters. */
export const searchQuery = z.string().trim().max(200).optional();

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });

/** Row ids are bigint; larger numbers are no id at all (a 400, never a database error). */
export const recordId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const recordIdParam = z.object({ id: recordId });

/** `%text%` for ILIKE with the user's `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamptz column (pg gives a Date; JSON carries its ISO string). */
export const timestamp = z.date();
