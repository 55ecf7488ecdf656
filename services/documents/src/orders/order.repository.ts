import type { Kysely } from '@aplt/db';

export async function insertOrderHeader(db: Kysely<any>, values: Record<string, unknown>) {
  return db.insertInto('aplt_order_headers').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertOrderLines(db: Kysely<any>, rows: Array<Record<string, unknown>>) {
  if (!rows.length) return [];
  return db.insertInto('aplt_order_lines').values(rows).returningAll().execute();
}

export async function findOrderHeader(db: Kysely<any>, id: number, forUpdate = false) {
  let q = db.selectFrom('aplt_order_headers').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findOrderByQuotation(db: Kysely<any>, quotationId: number) {
  return db
    .selectFrom('aplt_order_headers')
    .select(['id', 'order_number'])
    .where('quotation_id', '=', quotationId)
    .executeTakeFirst();
}

export async function findOrderLines(db: Kysely<any>, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db
    .selectFrom('aplt_order_lines')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('line_no')
    .execute();
}

export async function updateOrderHeader(db: Kysely<any>, id: number, values: Record<string, unknown>) {
  return db
    .updateTable('aplt_order_headers')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function addInvoicedQuantity(db: Kysely<any>, lineId: number | string, quantity: number) {
  await db
    .updateTable('aplt_order_lines')
    .set((eb) => ({ invoiced_quantity: eb('invoiced_quantity', '+', quantity) }))
    .where('id', '=', lineId)
    .execute();
}

export async function listOrderHeaders(
  db: Kysely<any>,
  f: { status?: string; customer_id?: number; limit: number; offset: number },
) {
  let q = db.selectFrom('aplt_order_headers').selectAll();
  if (f.status) q = q.where('status', '=', f.status);
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id);
  return q.orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
}

export async function deleteOrder(db: Kysely<any>, id: number) {
  await db.deleteFrom('aplt_order_headers').where('id', '=', id).execute();
}

export async function countInvoicesOfOrder(db: Kysely<any>, orderId: number): Promise<number> {
  const row = await db
    .selectFrom('aplt_invoice_headers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
