import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../router/types';

/** Pages under /app/settings. Not licensed features: always there. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./settings') },
  {
    path: 'licenses',
    handle: { breadcrumb: (_m, t) => t('nav.items.licenses') } satisfies RouteHandle,
    lazy: () => import('./licenses/license-list'),
  },
  {
    // The portal's deep link: /app/settings/dev-projects?code=<project code>.
    path: 'dev-projects',
    handle: { breadcrumb: (_m, t) => t('nav.items.devProjects') } satisfies RouteHandle,
    children: [{ index: true, lazy: () => import('./dev-projects/dev-projects-placeholder') }],
  },
];
