import type { FeatureSource } from './source';
import { allFeaturesSource } from './source';

/** A license client as every backend holds it: a FeatureSource plus its lifecycle. */
export interface LicenseClient extends FeatureSource {
  /** Loads snapshots and starts refreshing for the given tenants (more may be added later). */
  start(tenantIds: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the backend's license client from LICENSE_API_URL, TENANT_FEATURES and the snapshot
 * directory. Until the access service's license API exists this is all-features mode, the last
 * link of the spec's fallback chain.
 */
export function createLicenseClientFromEnv(
  _env: Record<string, string | undefined> = process.env,
): LicenseClient {
  return { ...allFeaturesSource, start: async () => {}, close: async () => {} };
}

/** A client that allows everything and never calls out: for tests that are not about licensing. */
export const allFeaturesClient: LicenseClient = {
  ...allFeaturesSource,
  start: async () => {},
  close: async () => {},
};
