import type { RouteObject } from 'react-router';
import { crumb, type RouteHandle } from '../../router/types';

/** Pages under /app/settings. Not licensed features: always there. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./settings') },
  {
    path: 'licenses',
    handle: crumb('nav.items.licenses'),
    lazy: () => import('./licenses/license-list'),
  },
  {
    // The portal's deep link: /app/settings/dev-projects?code=<project code>.
    path: 'dev-projects',
    handle: crumb('nav.items.devProjects'),
    children: [
      { index: true, lazy: () => import('./dev-projects/dev-project-list') },
      {
        path: ':id',
        lazy: () => import('./dev-projects/dev-project-detail'),
        handle: { breadcrumb: (m) => `#${m.params.id}` } satisfies RouteHandle,
      },
    ],
  },
];
