import { type FeatureSource, sidebarItemsFor } from '@aplt/licensing';

/** GET /admin/features: enabled features, the sidebar items they unlock and which source is in force. */
export function adminFeatures(licenses: FeatureSource, tenantId: string) {
  const features = licenses.enabledFeatures(tenantId);
  const status = licenses.status(tenantId);
  return {
    tenant_id: tenantId,
    features,
    sidebar_items: sidebarItemsFor(features),
    status: {
      source: status.source,
      all_features_mode: status.source === 'all-features',
      revision: status.revision,
      fetched_at: status.fetchedAt,
      last_error: status.lastError,
    },
  };
}
