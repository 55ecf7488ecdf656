import type { RouteObject } from 'react-router';

/** Pages under /app/parameters: one page with the editable parameters and the read-only tables. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./parameter-page') }];
