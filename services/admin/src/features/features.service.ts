import { featureCatalog, type FeatureSource, sidebarItemsFor } from '@aplt/licensing';

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

const sectionTitles: Record<string, string> = {
  sales: 'Sales',
  products: 'Products',
  content: 'Content',
  system: 'System',
  addons: 'Add-ons',
};

/**
 * The admin sidebar: only items listed in sidebar_items, grouped under section headers; a header
 * without visible children is not shown (spec 2, consumption rule 4).
 */
export function sidebarSections(sidebarItems: string[]) {
  const visible = new Set(sidebarItems);
  const sections: Array<{ id: string; title: string; items: Array<{ id: string; feature: string }> }> = [];
  for (const f of featureCatalog) {
    if (f.sidebar === null || !visible.has(f.sidebar)) continue;
    let section = sections.find((s) => s.id === f.group);
    if (!section)
      sections.push((section = { id: f.group, title: sectionTitles[f.group] ?? f.group, items: [] }));
    section.items.push({ id: f.sidebar, feature: f.key });
  }
  return sections;
}
