import type { RouteObject } from 'react-router';

/** Pages under /app/page-manager: a read-only list of the CMS pages, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./page-list') }];
