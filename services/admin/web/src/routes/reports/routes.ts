import type { RouteObject } from 'react-router';

/** Pages under /app/reports: one page with the KPIs, revenue, aged receivables and VAT. */
export const routes: RouteObject[] = [{ index: true, lazy: () => import('./reports') }];
