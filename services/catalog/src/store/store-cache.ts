import { LRUCache } from 'lru-cache';

export type StoreCache = LRUCache<string, string>;

/**
 * A small time-bounded cache for the public catalog: every visitor of a shop asks the same
 * pages, and catalog data changes only through imports and tenant updates, so answering a
 * page from memory for a few seconds spares the database. `lru-cache` bounds it (least recently
 * used entries go first when full) and expires entries after `ttlMs`. A TTL of 0 or less switches
 * the cache off (undefined): `lru-cache` itself reads `ttl: 0` as "never expires".
 */
export function createStoreCache(
  ttlMs: number,
  options: Pick<LRUCache.Options<string, string, unknown>, 'max' | 'perf' | 'ttlResolution'> = {},
): StoreCache | undefined {
  if (!(ttlMs > 0)) return undefined;
  return new LRUCache<string, string>({ max: 1000, ...options, ttl: ttlMs });
}
