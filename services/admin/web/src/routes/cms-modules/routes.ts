import type { RouteObject } from 'react-router';

/** Pages under /app/cms-modules: a read-only list of the modules, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./module-page') }];
