import type { RouteObject } from 'react-router';
import { documentCrumb } from '../../components/sales/document-crumb';

/** Pages under /app/payments: list (with "register a payment") and detail. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./payment-list') },
  {
    path: ':id',
    lazy: () => import('./payment-detail'),
    handle: documentCrumb('payments', 'payment_number'),
  },
];
