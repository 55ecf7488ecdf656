import type { RouteObject } from 'react-router';

/** Pages under /app/brand-wizard: a read-only list of the brands, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./brand-page') }];
