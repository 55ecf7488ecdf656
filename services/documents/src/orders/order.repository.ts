import type { ApltDatabase, Insertable, Kysely, Selectable } from '@aplt/db';
import type { Updateable } from 'kysely';
import { containsPattern } from '../shared/paging';

type Orders = ApltDatabase['aplt_order_headers'];
export type OrderHeader = Selectable<Orders>;
export type OrderHeaderChanges = Updateable<Orders>;
export type OrderLineValues = Insertable<ApltDatabase['aplt_order_lines']>;

export async function insertOrderHeader(db: Kysely<ApltDatabase>, values: Insertable<Orders>) {
  return db.insertInto('aplt_order_headers').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertOrderLines(db: Kysely<ApltDatabase>, rows: OrderLineValues[]) {
  if (!rows.length) return [];
  return db.insertInto('aplt_order_lines').values(rows).returningAll().execute();
}

export async function findOrderHeader(db: Kysely<ApltDatabase>, id: number, forUpdate = false) {
  let q = db.selectFrom('aplt_order_headers').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findOrderByQuotation(db: Kysely<ApltDatabase>, quotationId: number) {
  return db
    .selectFrom('aplt_order_headers')
    .select(['id', 'order_number'])
    .where('quotation_id', '=', quotationId)
    .executeTakeFirst();
}

export async function findOrderLines(db: Kysely<ApltDatabase>, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db
    .selectFrom('aplt_order_lines')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('line_no')
    .execute();
}

export async function updateOrderHeader(db: Kysely<ApltDatabase>, id: number, values: OrderHeaderChanges) {
  return db
    .updateTable('aplt_order_headers')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function addInvoicedQuantity(db: Kysely<ApltDatabase>, lineId: number, quantity: number) {
  await db
    .updateTable('aplt_order_lines')
    .set((eb) => ({ invoiced_quantity: eb('invoiced_quantity', '+', quantity) }))
    .where('id', '=', lineId)
    .execute();
}

/** A page of order headers (newest first) and the number of all that match. */
export async function listOrderHeaders(
  db: Kysely<ApltDatabase>,
  f: { status?: string; customer_id?: number; q?: string; limit: number; offset: number },
) {
  let q = db.selectFrom('aplt_order_headers');
  if (f.status) q = q.where('status', '=', f.status);
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id);
  const search = f.q?.trim();
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) =>
      eb.or([
        eb('order_number', 'ilike', like),
        eb('reference', 'ilike', like),
        eb('customer_company', 'ilike', like),
        eb('customer_name', 'ilike', like),
        eb('customer_email', 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function deleteOrder(db: Kysely<ApltDatabase>, id: number) {
  await db.deleteFrom('aplt_order_headers').where('id', '=', id).execute();
}

export async function countInvoicesOfOrder(db: Kysely<ApltDatabase>, orderId: number): Promise<number> {
  const row = await db
    .selectFrom('aplt_invoice_headers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
