import { type FeatureKey, featureKeys } from './catalog';

export interface FeatureStatus {
  /** Which link of the fallback chain is in force: api, snapshot, env or all-features. */
  source: 'api' | 'snapshot' | 'env' | 'all-features';
  revision: string | null;
  fetchedAt: string | null;
  lastError: string | null;
}

/** What a backend asks of its license client; one state per tenant in multi-tenant services. */
export interface FeatureSource {
  isFeatureEnabled(tenantId: string, feature: FeatureKey): boolean;
  enabledFeatures(tenantId: string): FeatureKey[];
  status(tenantId: string): FeatureStatus;
}

/** All-features mode: the last link of the fallback chain. */
export const allFeaturesSource: FeatureSource = {
  isFeatureEnabled: () => true,
  enabledFeatures: () => [...featureKeys],
  status: () => ({ source: 'all-features', revision: null, fetchedAt: null, lastError: null }),
};

/** A fixed set per tenant, for tools and tests that need no license API. */
export function staticFeatureSource(byTenant: Record<string, FeatureKey[]>): FeatureSource {
  return {
    isFeatureEnabled: (tenantId, feature) => byTenant[tenantId]?.includes(feature) ?? true,
    enabledFeatures: (tenantId) => byTenant[tenantId] ?? [...featureKeys],
    status: () => ({ source: 'env', revision: null, fetchedAt: null, lastError: null }),
  };
}
