import type { RouteObject } from 'react-router';
import { crumb, type RouteHandle } from '../../router/types';

/** Pages under /app/subscriptions: the list with the billing (switch, runs), create, detail, edit. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./subscription-list') },
  { path: 'create', lazy: () => import('./subscription-create'), handle: crumb('subscriptions.create') },
  {
    path: ':id',
    handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
    children: [
      { index: true, lazy: () => import('./subscription-detail') },
      { path: 'edit', lazy: () => import('./subscription-edit'), handle: crumb('subscriptions.edit') },
    ],
  },
];
