import type { ChainDocType } from '../../hooks/api/document-chain';

/** Where a document of each kind opens in the panel. */
export function documentPath(type: ChainDocType, id: number | string): string {
  switch (type) {
    case 'quotation':
      return `/quotations/${id}`;
    case 'order':
      return `/orders/${id}`;
    case 'invoice':
    case 'proforma':
      return `/invoices/${id}`;
    case 'credit_note':
      return `/credit-notes/${id}`;
    case 'payment':
      return `/payments/${id}`;
  }
}
