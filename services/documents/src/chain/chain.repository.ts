import type { Kysely } from '@aplt/db';
import type { DocType } from './relation.repository';

/** Number, status, date and total of documents of one type, for the chain's nodes. */
export async function describeDocuments(db: Kysely<any>, type: DocType, ids: string[]) {
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
  db: Kysely<any>,
  number: string,
): Promise<{ type: DocType; id: string } | undefined> {
  const prefix = number.charAt(0).toUpperCase();
  if (prefix === 'Q') {
    const r = await db
      .selectFrom('aplt_quotation_headers')
      .select('id')
      .where('quotation_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'quotation', id: String(r.id) };
  }
  if (prefix === 'O') {
    const r = await db
      .selectFrom('aplt_order_headers')
      .select('id')
      .where('order_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'order', id: String(r.id) };
  }
  if (prefix === 'B') {
    const r = await db
      .selectFrom('aplt_payments')
      .select('id')
      .where('payment_number', '=', number)
      .executeTakeFirst();
    return r && { type: 'payment', id: String(r.id) };
  }
  const r = await db
    .selectFrom('aplt_invoice_headers')
    .select(['id', 'document_type'])
    .where('invoice_number', '=', number)
    .executeTakeFirst();
  return r && { type: r.document_type as DocType, id: String(r.id) };
}
