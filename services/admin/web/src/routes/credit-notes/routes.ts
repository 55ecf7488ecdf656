import type { RouteObject } from 'react-router';
import { documentCrumb } from '../../components/sales/document-crumb';

/** Pages under /app/credit-notes: list and detail (credit notes are made from an invoice). */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./credit-note-list') },
  {
    path: ':id',
    lazy: () => import('./credit-note-detail'),
    handle: documentCrumb('credit-notes', 'invoice_number'),
  },
];
