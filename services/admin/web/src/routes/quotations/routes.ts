import type { RouteObject } from 'react-router';
import { documentCrumb } from '../../components/sales/document-crumb';
import { crumb } from '../../router/types';

/** Pages under /app/quotations: list, create, detail, edit. */
export const routes: RouteObject[] = [
  { index: true, lazy: () => import('./quotation-list') },
  { path: 'create', lazy: () => import('./quotation-create'), handle: crumb('quotations.create') },
  {
    path: ':id',
    handle: documentCrumb('quotations', 'quotation_number'),
    children: [
      { index: true, lazy: () => import('./quotation-detail') },
      { path: 'edit', lazy: () => import('./quotation-edit'), handle: crumb('quotations.edit') },
    ],
  },
];
