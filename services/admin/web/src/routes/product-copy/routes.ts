import type { RouteObject } from 'react-router';

/** Pages under /app/product-copy: the tenant update (the master's catalog into tenants). */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./product-copy-page') }];
