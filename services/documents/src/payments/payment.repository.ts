import { type ApltDatabase, type Insertable, type Kysely, sql } from '@aplt/db';
import type { Updateable } from 'kysely';
import { containsPattern } from '../shared/paging';

type Payments = ApltDatabase['aplt_payments'];

export async function insertPayment(db: Kysely<ApltDatabase>, values: Insertable<Payments>) {
  return db.insertInto('aplt_payments').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePayment(db: Kysely<ApltDatabase>, id: number, values: Updateable<Payments>) {
  return db
    .updateTable('aplt_payments')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPayment(db: Kysely<ApltDatabase>, id: number, forUpdate = false) {
  let q = db.selectFrom('aplt_payments').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertAllocation(
  db: Kysely<ApltDatabase>,
  values: Insertable<ApltDatabase['aplt_payment_allocations']>,
) {
  return db.insertInto('aplt_payment_allocations').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function allocationsOfPayments(db: Kysely<ApltDatabase>, paymentIds: number[]) {
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
  db: Kysely<ApltDatabase>,
  v: {
    customer_id: number;
    source_type: 'payment' | 'credit_note' | 'manual';
    payment_id?: number;
    credit_note_id?: number;
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
export async function openCreditsForUpdate(db: Kysely<ApltDatabase>, customerId: number) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('remaining_amount', '>', '0')
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function creditsOfCustomer(db: Kysely<ApltDatabase>, customerId: number) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .execute();
}

export async function setCreditRemaining(db: Kysely<ApltDatabase>, id: number, remaining: string) {
  await db
    .updateTable('aplt_unapplied_credits')
    .set({
      remaining_amount: remaining,
      status: sql`CASE WHEN ${remaining}::numeric = 0 THEN 'used' ELSE 'open' END`,
    })
    .where('id', '=', id)
    .execute();
}

/** The name a list shows for a customer: company, else the person, else the e-mail. */
const customerLabel = sql<
  string | null
>`coalesce(c.company, nullif(concat_ws(' ', c.first_name, c.last_name), ''), c.email)`;

/** A page of payments (newest first) with the customer's name, and the number of all that match. */
export async function listPayments(
  db: Kysely<ApltDatabase>,
  f: { customer_id?: number; q?: string; limit: number; offset: number },
) {
  let q = db.selectFrom('aplt_payments as p').leftJoin('aplt_customers as c', 'c.id', 'p.customer_id');
  if (f.customer_id) q = q.where('p.customer_id', '=', f.customer_id);
  const search = f.q?.trim();
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) =>
      eb.or([
        eb('p.payment_number', 'ilike', like),
        eb('p.reference', 'ilike', like),
        eb('c.company', 'ilike', like),
        eb(sql`concat_ws(' ', c.first_name, c.last_name)`, 'ilike', like),
        eb('c.email', 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .selectAll('p')
      .select(customerLabel.as('customer_name'))
      .orderBy('p.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The customer's name as lists show it (payments carry only the id). */
export async function customerNameOf(db: Kysely<ApltDatabase>, customerId: number | null) {
  if (customerId === null) return null;
  const row = await db
    .selectFrom('aplt_customers as c')
    .select(customerLabel.as('name'))
    .where('c.id', '=', customerId)
    .executeTakeFirst();
  return row?.name ?? null;
}

export async function addPaidTotal(db: Kysely<ApltDatabase>, invoiceId: number, amount: string) {
  await db
    .updateTable('aplt_invoice_headers')
    .set({ paid_total: sql`paid_total + ${amount}::numeric` })
    .where('id', '=', invoiceId)
    .execute();
}

export async function creditOfPayment(db: Kysely<ApltDatabase>, paymentId: number) {
  return db
    .selectFrom('aplt_unapplied_credits')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}
