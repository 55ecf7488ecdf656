import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/technique-pricing: the techniques and one technique with its scales. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./technique-list') },
  {
    path: ':id',
    lazy: () => import('./technique-detail'),
    handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
  },
];
