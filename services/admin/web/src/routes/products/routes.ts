import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/products: the catalog and one product by its SKU. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./product-list') },
  {
    path: ':sku',
    lazy: () => import('./product-detail'),
    handle: { breadcrumb: (m) => m.params.sku } satisfies RouteHandle,
  },
];
