import type { RouteObject } from 'react-router';

/** Pages under /app/crm: customers and open access requests at a glance. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./crm-page') }];
