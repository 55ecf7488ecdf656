import type { ApltDatabase, Kysely } from '@aplt/db';
import type { DocType } from './relation.repository';

export interface DocumentSummary {
  id: number;
  number: string;
  status: string;
  date: string;
  total: string;
  customer_id: number | null;
}

/** Rows of the invoice table (invoices, proformas, credit notes) carry its amounts and type too. */
export interface InvoiceSummary extends DocumentSummary {
  document_type: string;
  due_date: string;
  credited_total: string;
  paid_total: string;
}

/** Number, status, date and total of documents of one type, for the chain's nodes. */
export async function describeDocuments(
  db: Kysely<ApltDatabase>,
  type: DocType,
  ids: number[],
): Promise<Array<DocumentSummary | InvoiceSummary>> {
  if (!ids.length) return [];
  switch (type) {
    case 'quotation':
      return db
        .selectFrom('aplt_quotation_headers')
        .select([
          'id',
          'quotation_number as number',
          'status',
          'quotation_date as date',
          'total',
          'customer_id',
        ])
        .where('id', 'in', ids)
        .execute();
    case 'order':
      return db
        .selectFrom('aplt_order_headers')
        .select(['id', 'order_number as number', 'status', 'order_date as date', 'total', 'customer_id'])
        .where('id', 'in', ids)
        .execute();
    case 'payment':
      return db
        .selectFrom('aplt_payments')
        .select([
          'id',
          'payment_number as number',
          'status',
          'payment_date as date',
          'amount as total',
          'customer_id',
        ])
        .where('id', 'in', ids)
        .execute();
    default:
      return db
        .selectFrom('aplt_invoice_headers')
        .select([
          'id',
          'invoice_number as number',
          'status',
          'issue_date as date',
          'total',
          'customer_id',
          'document_type',
          'due_date',
          'credited_total',
          'paid_total',
        ])
        .where('id', 'in', ids)
        .execute();
  }
}

/** Finds a document by its number: the prefix names the table. */
export async function findByNumber(
  db: Kysely<ApltDatabase>,
  number: string,
): Promise<{ type: DocType; id: number } | undefined> {
  const prefix = number.charAt(0).toUpperCase();
  if (prefix === 'Q') {
    const r = await db
      .selectFrom('aplt_quotation_headers')
      .select('id')
      .where('quotation_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'quotation', id: r.id };
  }
  if (prefix === 'O') {
    const r = await db
      .selectFrom('aplt_order_headers')
      .select('id')
      .where('order_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'order', id: r.id };
  }
  if (prefix === 'B') {
    const r = await db
      .selectFrom('aplt_payments')
      .select('id')
      .where('payment_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'payment', id: r.id };
  }
  const r = await db
    .selectFrom('aplt_invoice_headers')
    .select(['id', 'document_type'])
    .where('invoice_number', '=', number)
    .executeTakeFirst();
  return r && { type: r.document_type as DocType, id: r.id };
}
