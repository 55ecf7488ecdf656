/**
 * The 31-feature catalog of spec 2: key, group and admin-sidebar item. The one place these facts
 * live; the access service seeds from it, backends filter the sidebar with it.
 */
export const featureCatalog = [
  { key: 'quotations', group: 'sales', sidebar: '01-quotations' },
  { key: 'orders', group: 'sales', sidebar: '02-aplt-orders' },
  { key: 'invoices', group: 'sales', sidebar: '03-invoices' },
  { key: 'credit_notes', group: 'sales', sidebar: '05-credit-notes' },
  { key: 'payments', group: 'sales', sidebar: '06-payments' },
  { key: 'customers', group: 'sales', sidebar: '04-customers' },
  { key: 'subscriptions', group: 'sales', sidebar: '08-subscriptions' },
  { key: 'reports', group: 'sales', sidebar: '07-reports' },
  { key: 'dunning', group: 'sales', sidebar: null },
  { key: 'products', group: 'products', sidebar: '23-aplt-products' },
  { key: 'technique_pricing', group: 'products', sidebar: '25-technique-pricing' },
  { key: 'suppliers', group: 'products', sidebar: '28-suppliers' },
  { key: 'product_copy', group: 'products', sidebar: '29-product-copy' },
  { key: 'sales_channel_products', group: 'products', sidebar: '27-sales-channel-products' },
  { key: 'cms', group: 'content', sidebar: '11-cms' },
  { key: 'cms_modules', group: 'content', sidebar: '13-cms-modules' },
  { key: 'brand_wizard', group: 'content', sidebar: '12-brand-wizard' },
  { key: 'page_manager', group: 'content', sidebar: '14-page-manager' },
  { key: 'menu_manager', group: 'content', sidebar: '15-menu-manager' },
  { key: 'translations', group: 'content', sidebar: '26-translations' },
  { key: 'connectors', group: 'system', sidebar: '21-connectors' },
  { key: 'access_requests', group: 'system', sidebar: '22-access-requests' },
  { key: 'parameters', group: 'system', sidebar: '30-parameters' },
  { key: 'crm', group: 'addons', sidebar: '09-crm' },
  { key: 'designer_2d', group: 'addons', sidebar: null },
  { key: 'designer_external', group: 'addons', sidebar: null },
  { key: 'quotation_source_filter', group: 'addons', sidebar: null },
  { key: 'purchase_orders', group: 'addons', sidebar: null },
  { key: 'picking_lists', group: 'addons', sidebar: null },
  { key: 'shipments', group: 'addons', sidebar: null },
  { key: 'ai_assist', group: 'addons', sidebar: null },
] as const;

export type FeatureKey = (typeof featureCatalog)[number]['key'];
export type FeatureGroup = (typeof featureCatalog)[number]['group'];

export const featureKeys: readonly FeatureKey[] = featureCatalog.map((f) => f.key);
export const featureGroups: readonly FeatureGroup[] = [...new Set(featureCatalog.map((f) => f.group))];

const keySet = new Set<string>(featureKeys);
export function isFeatureKey(value: string): value is FeatureKey {
  return keySet.has(value);
}

/** Sidebar item ids of the enabled features, in catalog order. */
export function sidebarItemsFor(enabled: Iterable<string>): string[] {
  const on = new Set(enabled);
  return featureCatalog.filter((f) => f.sidebar !== null && on.has(f.key)).map((f) => f.sidebar as string);
}
