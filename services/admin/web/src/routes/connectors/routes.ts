import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/connectors: the connectors with the syncs and run history, and one run. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./connector-list') },
  {
    path: 'runs/:id',
    lazy: () => import('./run-detail'),
    handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
  },
];
