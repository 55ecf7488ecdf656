import { z } from 'zod';

/*
 * Server-side paging of the admin lists: `limit` (1-100, default 20) and `offset`, answered as
 * `{data, count, limit, offset}` where `count` is the number of matching rows. Browser-safe.
 */

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PageQuery = z.infer<typeof pageQuery>;

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
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Optimistic concurrency: the `updated_at` a form was loaded with. */
export const expectedUpdatedAt = z.iso.datetime({ offset: true }).optional();
