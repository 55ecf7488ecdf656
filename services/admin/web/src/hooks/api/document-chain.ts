import { useAdminQuery } from './use-admin-query';

/* The document chain (`/admin/aplt/document-chain`, documents service): every document linked to one. */

export type ChainDocType = 'quotation' | 'order' | 'invoice' | 'proforma' | 'credit_note' | 'payment';

export interface ChainDocument {
  type: ChainDocType;
  id: number;
  number: string;
  status: string;
  date: string;
  total: string;
  customer_id: number | null;
  due_date?: string;
  balance?: string;
}

export interface ChainRelation {
  source_type: ChainDocType;
  source_id: number;
  target_type: ChainDocType;
  target_id: number;
  relation_type: string;
}

export interface DocumentChain {
  root: { type: ChainDocType; id: number };
  documents: ChainDocument[];
  relations: ChainRelation[];
}

/** Invalidated by every write that adds a document or a link (`['admin', 'chain']`). */
export const chainQueryKey = (type: ChainDocType, id: number | string) =>
  ['admin', 'chain', type, String(id)] as const;

export const useDocumentChain = (type: ChainDocType, id: number | string) =>
  useAdminQuery<DocumentChain>(
    '/admin/aplt/document-chain',
    { type, id },
    { queryKey: chainQueryKey(type, id) },
  );
