import type { App } from '@aplt/http';
import {
  invalidationChannel,
  type InvalidationSubscriber,
  publishInvalidation,
  subscribeInvalidations,
} from '@aplt/licensing';
import type { Redis } from '@aplt/queue';
import type { StoreCache } from './store-cache';

/**
 * The store API's page cache (store-cache.ts) is per process; these keep it in step across
 * replicas. Whatever changes a tenant's catalog (an admin write through any catalog replica, a
 * connector run, a tenant update or a commerce sync in a worker) publishes the tenant id on
 * `<prefix>:invalidate:catalog-store`, and every replica drops that tenant's cached pages. A
 * replica that missed messages (Redis link down) drops everything when the link is back, and
 * CATALOG_STORE_CACHE_SECONDS bounds what it served in between.
 */
export const storeCacheChannel = (prefix: string) => invalidationChannel(prefix, 'catalog-store');

/** Cache keys start with the tenant id and '|' (store.routes.ts). */
export const storeCacheKey = (tenantId: string, url: string) => `${tenantId}|${url}`;

export type StoreChanged = (tenantId: string) => Promise<void>;

export function storeChangedPublisher(
  redis: Pick<Redis, 'publish'>,
  prefix: string,
  log?: { warn(obj: object, msg: string): void },
): StoreChanged {
  return (tenantId) => publishInvalidation(redis, storeCacheChannel(prefix), tenantId, log);
}

export function dropTenant(cache: StoreCache, tenantId: string): void {
  const start = storeCacheKey(tenantId, '');
  for (const key of [...cache.keys()]) if (key.startsWith(start)) cache.delete(key);
}

export function subscribeStoreCache(
  cache: StoreCache,
  opts: { url: string; prefix: string; log: { warn(obj: object, msg: string): void } },
): InvalidationSubscriber {
  return subscribeInvalidations({
    url: opts.url,
    channel: storeCacheChannel(opts.prefix),
    log: opts.log,
    onMessage: (tenantId) => dropTenant(cache, tenantId),
    onResync: () => cache.clear(),
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every successful write through this replica that names a tenant announces that tenant's
 * catalog as changed, before the answer leaves: when the client sees 2xx, no replica serves the
 * old page any more. Coarse on purpose (a write that changed nothing visible costs one cache
 * refill), so a new admin route cannot forget it.
 */
export function announceWrites(app: App, changed: StoreChanged): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const tenant = (request as { tenant?: { id: string } | null }).tenant;
    if (WRITES.has(request.method) && reply.statusCode < 300 && tenant) await changed(tenant.id);
    return payload;
  });
}
