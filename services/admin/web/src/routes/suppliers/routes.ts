import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/suppliers: the list and one supplier with its connectors. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./supplier-list') },
  {
    path: ':id',
    lazy: () => import('./supplier-detail'),
    handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
  },
];
