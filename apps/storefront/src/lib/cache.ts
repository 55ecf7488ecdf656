/**
 * A small in-process cache with a time to live, a size bound (least recently used out first) and
 * one load per key at a time: concurrent renders of the same page share one store API call.
 * A failed load is not kept, so an error is retried by the next request.
 *
 * Why not Next's `unstable_cache`: its data cache serialises every entry to disk or a handler,
 * which costs more than these small JSON answers; one process serves every tenant, so keys always
 * carry the tenant's API host.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: () => number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const ttl = this.ttlMs();
    if (ttl <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      // Most recently used last in the map's order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = load();
    const entry = { value, expires: now + ttl };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Drops one key (or every key starting with `prefix` when it ends in `*`). */
  invalidate(key: string): void {
    if (!key.endsWith('*')) {
      this.entries.delete(key);
      return;
    }
    const prefix = key.slice(0, -1);
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
