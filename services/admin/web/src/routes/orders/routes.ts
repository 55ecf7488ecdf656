import type { RouteObject } from 'react-router';
import { documentCrumb } from '../../components/sales/document-crumb';

/** Pages under /app/orders: list and detail. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./order-list') },
  { path: ':id', lazy: () => import('./order-detail'), handle: documentCrumb('orders', 'order_number') },
];
