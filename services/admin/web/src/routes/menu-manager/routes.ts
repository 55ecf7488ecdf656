import type { RouteObject } from 'react-router';

/** Pages under /app/menu-manager: a read-only list of the menus, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./menu-list') }];
