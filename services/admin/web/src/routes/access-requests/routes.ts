import type { RouteObject } from 'react-router';

/** Pages under /app/access-requests: the requests, open ones first, decided in the list. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./access-request-list') }];
