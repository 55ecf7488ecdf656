import type { RouteObject } from 'react-router';

/** Pages under /app/sales-channel-products: the sellable products and the webshop sync. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./sales-channel-page') }];
