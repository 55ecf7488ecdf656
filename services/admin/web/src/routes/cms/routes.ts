import type { RouteObject } from 'react-router';

/** Pages under /app/cms: a read-only list of company data per brand and the footer, until their own routes are specified. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./cms-page') }];
