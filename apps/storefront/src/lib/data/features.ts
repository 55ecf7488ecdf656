import { TtlCache } from '../cache';
import { runtimeEnv } from '../env';
import { sdkFor } from '../sdk';
import { shopRequest } from '../tenant';

/** Feature keys the storefront shows pages for (packages/licensing/src/catalog.ts). */
export type StoreFeature =
  'products' | 'quotations' | 'orders' | 'invoices' | 'access_requests' | 'designer_external';

export interface Features {
  allFeatures: boolean;
  hasFeature(feature: StoreFeature): boolean;
}

/** A tenant's list per API host for STOREFRONT_CACHE_SECONDS (spec 2 allows up to 60 s). */
const featureCache = new TtlCache<string[]>(() => runtimeEnv.cacheSeconds() * 1000, 1000);

/**
 * Spec 2's order: NEXT_PUBLIC_TENANT_FEATURES when it lists features, else the tenant's
 * `/api/store/features`; with neither, all-features mode (an empty list means every feature).
 */
export async function tenantFeatures(): Promise<Features> {
  const fromEnv = (runtimeEnv.tenantFeatures() ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let list: string[] = fromEnv;
  if (list.length === 0) {
    try {
      const { apiHost } = await shopRequest();
      list = await featureCache.get(apiHost, async () => {
        const body = await sdkFor(apiHost).client.fetch<{ features: string[] }>('/api/store/features', {
          cache: 'no-store',
        });
        return body.features;
      });
    } catch {
      list = [];
    }
  }
  const on = new Set(list);
  const allFeatures = on.size === 0;
  return { allFeatures, hasFeature: (f) => allFeatures || on.has(f) };
}
