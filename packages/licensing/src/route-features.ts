import type { FeatureKey } from './catalog';

/**
 * The route-to-feature map: which licensed feature a tenant-backend path belongs to. The longest
 * matching prefix wins. Every service's guard reads this table; nothing else decides.
 * (The quotation_source_filter add-on guards a query parameter, not a path: see documents.)
 */
export const routeFeatures: ReadonlyArray<{ prefix: string; feature: FeatureKey }> = [
  { prefix: '/admin/aplt/quotations', feature: 'quotations' },
  { prefix: '/store/aplt/quotations', feature: 'quotations' },
  { prefix: '/store/aplt/quotes', feature: 'quotations' },
  { prefix: '/admin/aplt/orders', feature: 'orders' },
  { prefix: '/store/aplt/returns', feature: 'orders' },
  { prefix: '/admin/aplt/invoices', feature: 'invoices' },
  { prefix: '/store/aplt/invoices', feature: 'invoices' },
  { prefix: '/admin/aplt/credit-notes', feature: 'credit_notes' },
  { prefix: '/admin/aplt/payments', feature: 'payments' },
  { prefix: '/admin/aplt/reports', feature: 'reports' },
  { prefix: '/admin/aplt/access-requests', feature: 'access_requests' },
  { prefix: '/admin/connectors', feature: 'connectors' },
  { prefix: '/admin/tenant-update', feature: 'product_copy' },
  { prefix: '/admin/agent/product-search', feature: 'ai_assist' },
  { prefix: '/admin/aplt/ai-assist', feature: 'ai_assist' },
  { prefix: '/admin/aplt/ai-generate-lines', feature: 'ai_assist' },
  { prefix: '/store/aplt/products', feature: 'products' },
  { prefix: '/store/aplt/categories', feature: 'products' },
];

const byLength = [...routeFeatures].sort((a, b) => b.prefix.length - a.prefix.length);

export function featureForPath(url: string): FeatureKey | undefined {
  const path = url.split('?')[0] ?? url;
  for (const { prefix, feature } of byLength) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return feature;
  }
  return undefined;
}
