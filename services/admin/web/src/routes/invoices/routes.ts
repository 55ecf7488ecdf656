import type { RouteObject } from 'react-router';
import { documentCrumb } from '../../components/sales/document-crumb';

/** Pages under /app/invoices: list and detail (proformas too). */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./invoice-list') },
  {
    path: ':id',
    lazy: () => import('./invoice-detail'),
    handle: documentCrumb('invoices', 'invoice_number'),
  },
];
