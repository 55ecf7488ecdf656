import { type Kysely, sql } from '@aplt/db';

export async function insertPayment(db: Kysely<any>, values: Record<string, unknown>) {
  return db.insertInto('aplt_payments').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePayment(db: Kysely<any>, id: number | string, values: Record<string, unknown>) {
  return db
    .updateTable('aplt_payments')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPayment(db: Kysely<any>, id: number | string, forUpdate = false) {
  let q = db.selectFrom('aplt_payments').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertAllocation(db: Kysely<any>, values: Record<string, unknown>) {
  return db.insertInto('aplt_payment_allocations').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function allocationsOfPayments(db: Kysely<any>, paymentIds: Array<number | string>) {
  if (!paymentIds.length) return [];
  return db
    .selectFrom('aplt_payment_allocations as a')
    .innerJoin('aplt_invoice_headers as h', 'h.id', 'a.invoice_id')
    .select(['a.id', 'a.payment_id', 'a.invoice_id', 'a.amount', 'a.allocated_at', 'h.invoice_number'])
    .where('a.payment_id', 'in', paymentIds)
    .orderBy('a.id')
    .execute();
}

export async function insertUnappliedCredit(
  db: Kysely<any>,
  v: {
    customer_id: number | string;
    source_type: 'payment' | 'credit_note' | 'manual';
    payment_id?: number | string;
    credit_note_id?: number | string;
    amount: string;
    notes?: string;
  },
) {
  return db
    .insertInto('aplt_unapplied_credits')
    .values({
      ...v,
      payment_id: v.payment_id ?? null,
      credit_note_id: v.credit_note_id ?? null,
      remaining_amount: v.amount,
      notes: v.notes ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Open credits of a customer, oldest first, locked so two allocations cannot spend them twice. */
export async function openCreditsForUpdate(db: Kysely<any>, customerId: number | string) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('remaining_amount', '>', 0)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function creditsOfCustomer(db: Kysely<any>, customerId: number | string) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .execute();
}

export async function setCreditRemaining(db: Kysely<any>, id: number | string, remaining: string) {
  await db
    .updateTable('aplt_unapplied_credits')
    .set({
      remaining_amount: remaining,
      status: sql`CASE WHEN ${remaining}::numeric = 0 THEN 'used' ELSE 'open' END`,
    })
    .where('id', '=', id)
    .execute();
}

export async function listPayments(
  db: Kysely<any>,
  f: { customer_id?: number; limit: number; offset: number },
) {
  let q = db.selectFrom('aplt_payments').selectAll();
  if (f.customer_id) q = q.where('customer_id', '=', f.customer_id);
  return q.orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
}

export async function addPaidTotal(db: Kysely<any>, invoiceId: number | string, amount: string) {
  await db
    .updateTable('aplt_invoice_headers')
    .set({ paid_total: sql`paid_total + ${amount}::numeric` })
    .where('id', '=', invoiceId)
    .execute();
}

export async function creditOfPayment(db: Kysely<any>, paymentId: number | string) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}
