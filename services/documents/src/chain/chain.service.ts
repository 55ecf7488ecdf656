import type { ApltDatabase, Kysely } from '@aplt/db';
import { notFound } from '@aplt/http';
import type { FeatureKey } from '@aplt/licensing';
import { invoiceState } from '../invoices/invoice.service';
import { isoDate } from '../shared/context';
import {
  describeDocuments,
  type DocumentSummary,
  findByNumber,
  type InvoiceSummary,
} from './chain.repository';
import { type DocType, relationsTouching } from './relation.repository';

const order: DocType[] = ['quotation', 'order', 'proforma', 'invoice', 'credit_note', 'payment'];

/** The licensed feature each kind of document belongs to (a proforma is an invoice's draft). */
export const docTypeFeature: Record<DocType, FeatureKey> = {
  quotation: 'quotations',
  order: 'orders',
  proforma: 'invoices',
  invoice: 'invoices',
  credit_note: 'credit_notes',
  payment: 'payments',
};

const prefixType: Record<string, DocType> = {
  Q: 'quotation',
  O: 'order',
  F: 'invoice',
  P: 'proforma',
  C: 'credit_note',
  B: 'payment',
};

const isInvoiceRow = (d: DocumentSummary): d is InvoiceSummary => 'paid_total' in d;

/** The document type a number's prefix names (`F-2026-0001` is an invoice). */
export const docTypeOfNumber = (number: string): DocType | undefined =>
  prefixType[number.charAt(0).toUpperCase()];

/**
 * The whole chain around one document: walks the relation graph in both directions until no new
 * document appears (quotation -> order -> invoices -> credit notes, payments), whichever
 * document it starts from. Documents for which `visible` says no (a feature the tenant is not
 * licensed for) are walked through but not shown, nor the relations that touch them.
 */
export async function documentChain(
  db: Kysely<ApltDatabase>,
  start: { type?: DocType; id?: number; number?: string },
  visible: (type: DocType) => boolean = () => true,
) {
  let root: { type: DocType; id: number } | undefined;
  if (start.number) root = await findByNumber(db, start.number);
  else if (start.type && start.id) root = { type: start.type, id: start.id };
  if (!root) throw notFound('Document not found');
  const [exists] = await describeDocuments(db, root.type, [root.id]);
  if (
    !exists ||
    ((root.type === 'invoice' || root.type === 'proforma' || root.type === 'credit_note') &&
      (isInvoiceRow(exists) ? exists.document_type : undefined) !== root.type)
  ) {
    throw notFound(`${root.type} ${root.id} not found`);
  }
  const seen = new Map<string, { type: DocType; id: number }>([[`${root.type}:${root.id}`, root]]);
  const edges = new Map<string, Awaited<ReturnType<typeof relationsTouching>>[number]>();
  let frontier = [root];
  while (frontier.length) {
    const rels = await relationsTouching(db, frontier);
    frontier = [];
    for (const r of rels) {
      edges.set(String(r.id), r);
      for (const n of [
        { type: r.source_type, id: r.source_id },
        { type: r.target_type, id: r.target_id },
      ]) {
        const key = `${n.type}:${n.id}`;
        if (!seen.has(key)) {
          seen.set(key, n);
          frontier.push(n);
        }
      }
    }
  }
  const documents = [];
  for (const type of order.filter(visible)) {
    const ids = [...seen.values()].filter((n) => n.type === type).map((n) => n.id);
    for (const d of await describeDocuments(db, type, ids)) {
      const extra = type === 'invoice' && isInvoiceRow(d) ? invoiceState(d) : {};
      documents.push({
        type,
        ...d,
        id: Number(d.id),
        date: isoDate(d.date),
        ...(isInvoiceRow(d) && d.due_date ? { due_date: isoDate(d.due_date) } : {}),
        ...extra,
      });
    }
  }
  return {
    root: { type: root.type, id: root.id },
    documents,
    relations: [...edges.values()]
      .filter((r) => visible(r.source_type) && visible(r.target_type))
      .map((r) => ({
        source_type: r.source_type,
        source_id: r.source_id,
        target_type: r.target_type,
        target_id: r.target_id,
        relation_type: r.relation_type,
        metadata: r.metadata,
      })),
  };
}
