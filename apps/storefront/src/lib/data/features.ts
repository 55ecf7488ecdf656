import { runtimeEnv } from '../env';
import { storeSdk } from '../sdk';

/** Feature keys the storefront shows pages for (packages/licensing/src/catalog.ts). */
export type StoreFeature = 'products' | 'quotations' | 'orders' | 'invoices' | 'access_requests';

export interface Features {
  allFeatures: boolean;
  hasFeature(feature: StoreFeature): boolean;
}

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
      const sdk = await storeSdk();
      const body = await sdk.client.fetch<{ features: string[] }>('/api/store/features', {
        cache: 'no-store',
      });
      list = body.features;
    } catch {
      list = [];
    }
  }
  const on = new Set(list);
  const allFeatures = on.size === 0;
  return { allFeatures, hasFeature: (f) => allFeatures || on.has(f) };
}
