import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/customers: the list, and one customer (edit in a drawer). */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./customer-list') },
  {
    path: ':id',
    lazy: () => import('./customer-detail'),
    handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
  },
];
