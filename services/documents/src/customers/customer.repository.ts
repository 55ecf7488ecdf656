import { type ApltDatabase, type Insertable, type Kysely, sql } from '@aplt/db';
import type { RawBuilder, Updateable } from 'kysely';
import type { JsonObject } from '../shared/json';
import { containsPattern } from '../shared/paging';

type Customers = ApltDatabase['aplt_customers'];
export type CustomerValues = Insertable<Customers>;

/** Written only from the objects of the customer form and the shop profile. */
type CustomerJson = { shipping_address: JsonObject | null; metadata: JsonObject };

/** Columns of a customer record in the admin API (not the soft-delete bookkeeping). */
export const customerColumns = [
  'id',
  'customer_number',
  'email',
  'company',
  'first_name',
  'last_name',
  'phone',
  'vat_number',
  'coc_number',
  'country',
  'address_line1',
  'address_line2',
  'postal_code',
  'city',
  'region',
  'shipping_address',
  'language',
  'currency',
  'payment_term_days',
  'payment_term_id',
  'discount_group_id',
  'brand_id',
  'commerce_customer_id',
  'notes',
  'metadata',
  'is_active',
  'created_at',
  'updated_at',
] as const;

export interface CustomerFilter {
  q?: string | undefined;
  is_active?: boolean | undefined;
  sort: 'name' | 'number' | 'newest';
  limit: number;
  offset: number;
}

/** What every invoice of a customer still owes; credit notes and proformas owe nothing. */
const openBalanceOf = (customerId: RawBuilder<unknown>) => sql<string>`coalesce((
  SELECT sum(greatest(i.total - i.credited_total - i.paid_total, 0)) FROM aplt_invoice_headers i
   WHERE i.customer_id = ${customerId} AND i.document_type = 'invoice'), 0)::numeric(14,2)::text`;

function filtered(db: Kysely<ApltDatabase>, f: Pick<CustomerFilter, 'q' | 'is_active'>) {
  let q = db.selectFrom('aplt_customers as c').where('c.deleted_at', 'is', null);
  if (f.is_active !== undefined) q = q.where('c.is_active', '=', f.is_active);
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([
        eb('c.customer_number', 'ilike', p),
        eb('c.email', 'ilike', p),
        eb('c.company', 'ilike', p),
        eb(sql`concat_ws(' ', c.first_name, c.last_name)`, 'ilike', p),
        eb('c.vat_number', 'ilike', p),
      ]),
    );
  }
  return q;
}

export async function listCustomers(db: Kysely<ApltDatabase>, f: CustomerFilter) {
  const base = filtered(db, f);
  const order =
    f.sort === 'number'
      ? sql`c.customer_number NULLS LAST, c.id`
      : f.sort === 'newest'
        ? sql`c.id DESC`
        : sql`lower(coalesce(c.company, concat_ws(' ', c.last_name, c.first_name), c.email)) NULLS LAST, c.id`;
  const [rows, total] = await Promise.all([
    base
      .select(customerColumns.map((c) => `c.${c}` as const))
      .select(openBalanceOf(sql.ref('c.id')).as('open_balance'))
      .orderBy(order)
      .limit(f.limit)
      .offset(f.offset)
      .$narrowType<CustomerJson>()
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export async function findCustomer(db: Kysely<ApltDatabase>, id: number, forUpdate = false) {
  let q = db
    .selectFrom('aplt_customers')
    .select([...customerColumns])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .$narrowType<CustomerJson>();
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertCustomer(db: Kysely<ApltDatabase>, values: CustomerValues) {
  return db
    .insertInto('aplt_customers')
    .values(values)
    .returning([...customerColumns])
    .executeTakeFirstOrThrow();
}

/**
 * A new customer unless a unique value is taken (the e-mail, case-insensitively, or the commerce
 * customer): then nothing is inserted and the answer is undefined. A concurrent insert of the
 * same e-mail makes this one wait for it and then do nothing, so two callers never make two.
 */
export async function insertCustomerUnlessTaken(db: Kysely<ApltDatabase>, values: CustomerValues) {
  return db
    .insertInto('aplt_customers')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returning(['id'])
    .executeTakeFirst();
}

export async function customerIdByCommerceId(db: Kysely<ApltDatabase>, commerceCustomerId: string) {
  return (
    await db
      .selectFrom('aplt_customers')
      .select('id')
      .where('commerce_customer_id', '=', commerceCustomerId)
      .executeTakeFirst()
  )?.id;
}

export async function updateCustomer(db: Kysely<ApltDatabase>, id: number, values: Updateable<Customers>) {
  return db
    .updateTable('aplt_customers')
    .set(values)
    .where('id', '=', id)
    .returning([...customerColumns])
    .executeTakeFirstOrThrow();
}

export async function deleteCustomer(db: Kysely<ApltDatabase>, id: number) {
  await db.deleteFrom('aplt_customers').where('id', '=', id).execute();
}

/**
 * The next free number of the form K0001, K0002, ... (the demo data's form), under a
 * transaction-scoped advisory lock so two concurrent creations never pick the same one.
 */
export async function nextCustomerNumber(db: Kysely<ApltDatabase>): Promise<string> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('aplt_customers.customer_number'))`.execute(db);
  const r = await sql<{ n: number }>`
    SELECT coalesce(max(substring(customer_number FROM 2)::bigint), 0) + 1 AS n
      FROM aplt_customers WHERE customer_number ~ '^K[0-9]{1,15}$'`.execute(db);
  return `K${String(r.rows[0]!.n).padStart(4, '0')}`;
}

/** The same lock as nextCustomerNumber, for a creation that brings its own number. */
export async function lockCustomerNumbers(db: Kysely<ApltDatabase>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('aplt_customers.customer_number'))`.execute(db);
}

export async function customerIdByNumber(db: Kysely<ApltDatabase>, number: string) {
  return (
    await db
      .selectFrom('aplt_customers')
      .select('id')
      .where('customer_number', '=', number)
      .executeTakeFirst()
  )?.id;
}

export async function customerIdByEmail(db: Kysely<ApltDatabase>, email: string) {
  return (
    await db
      .selectFrom('aplt_customers')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst()
  )?.id;
}

/** Balances of one customer: open, overdue (as of `asOf`), and unapplied credit. */
export async function customerBalances(db: Kysely<ApltDatabase>, id: number, asOf: string) {
  const r = await sql<{ open: string; overdue: string; credit: string }>`
    SELECT ${openBalanceOf(sql`${id}`)} AS open,
      coalesce((SELECT sum(greatest(i.total - i.credited_total - i.paid_total, 0)) FROM aplt_invoice_headers i
         WHERE i.customer_id = ${id} AND i.document_type = 'invoice' AND i.due_date < ${asOf}::date), 0)::numeric(14,2)::text AS overdue,
      coalesce((SELECT sum(u.remaining_amount) FROM aplt_unapplied_credits u
         WHERE u.customer_id = ${id} AND u.status = 'open'), 0)::numeric(14,2)::text AS credit`.execute(db);
  return r.rows[0]!;
}

/** How many documents of each kind name the customer (any of them forbids deleting it). */
export async function documentCounts(db: Kysely<ApltDatabase>, id: number) {
  const r = await sql<{
    quotations: number;
    orders: number;
    invoices: number;
    credit_notes: number;
    payments: number;
    returns: number;
  }>`
    SELECT
      (SELECT count(*) FROM aplt_quotation_headers WHERE customer_id = ${id})::int AS quotations,
      (SELECT count(*) FROM aplt_order_headers WHERE customer_id = ${id})::int AS orders,
      (SELECT count(*) FROM aplt_invoice_headers WHERE customer_id = ${id} AND document_type <> 'credit_note')::int AS invoices,
      (SELECT count(*) FROM aplt_invoice_headers WHERE customer_id = ${id} AND document_type = 'credit_note')::int AS credit_notes,
      (SELECT count(*) FROM aplt_payments WHERE customer_id = ${id})::int AS payments,
      (SELECT count(*) FROM aplt_returns WHERE customer_id = ${id})::int AS returns`.execute(db);
  return r.rows[0]!;
}

export interface CustomerDocumentRow {
  type: 'quotation' | 'order' | 'invoice' | 'credit_note' | 'payment';
  id: number;
  number: string;
  date: string;
  status: string;
  total: string;
  credited_total: string | null;
  paid_total: string | null;
  due_date: string | null;
  document_type: string | null;
}

/** The newest documents of a customer across every kind, newest first. */
export async function recentDocuments(db: Kysely<ApltDatabase>, id: number, limit: number) {
  const r = await sql<CustomerDocumentRow>`
    SELECT * FROM (
      (SELECT 'quotation' AS type, id, quotation_number AS number, quotation_date AS date, status, total::text,
              NULL::text AS credited_total, NULL::text AS paid_total, NULL::date AS due_date, NULL AS document_type
         FROM aplt_quotation_headers WHERE customer_id = ${id} ORDER BY quotation_date DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT 'order', id, order_number, order_date, status, total::text, NULL, NULL, NULL, NULL
         FROM aplt_order_headers WHERE customer_id = ${id} ORDER BY order_date DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT CASE document_type WHEN 'credit_note' THEN 'credit_note' ELSE 'invoice' END, id, invoice_number,
              issue_date, status, total::text, credited_total::text, paid_total::text, due_date, document_type
         FROM aplt_invoice_headers WHERE customer_id = ${id} ORDER BY issue_date DESC, id DESC LIMIT ${limit})
      UNION ALL
      (SELECT 'payment', id, payment_number, payment_date, status, amount::text, NULL, NULL, NULL, NULL
         FROM aplt_payments WHERE customer_id = ${id} ORDER BY payment_date DESC, id DESC LIMIT ${limit})
    ) d ORDER BY date DESC, type, id DESC LIMIT ${limit}`.execute(db);
  return r.rows;
}
