import { type ApltDatabase, type Insertable, type Kysely, sql } from '@aplt/db';
import type { Updateable } from 'kysely';
import { containsPattern } from '../shared/paging';

type Subscriptions = ApltDatabase['aplt_subscriptions'];
export type SubscriptionChanges = Updateable<Subscriptions>;
/** A line as the caller gives it: the subscription and the numbering are added here. */
export type SubscriptionLineValues = Omit<
  Insertable<ApltDatabase['aplt_subscription_lines']>,
  'subscription_id' | 'line_no'
>;

/*
 * Subscriptions, their lines, their invoices per period and the billing runs. I/O only: the rules
 * (status, periods, exactly-once) live in the services.
 */

const subscriptionColumns = [
  's.id',
  's.customer_id',
  's.description',
  's.billing_interval',
  sql<string>`s.start_date::text`.as('start_date'),
  sql<string | null>`s.end_date::text`.as('end_date'),
  's.paused_at',
  's.payment_term_days',
  's.reference',
  's.notes',
  's.created_by',
  's.created_at',
  's.updated_at',
  'c.company as customer_company',
  sql<string | null>`nullif(trim(concat_ws(' ', c.first_name, c.last_name)), '')`.as('customer_name'),
  'c.email as customer_email',
] as const;

/** The status of subscriptionStatuses, as of `asOf`, in SQL (same rule as the service). */
export const statusSql = (asOf: string) => sql<string>`CASE
    WHEN s.paused_at IS NOT NULL THEN 'paused'
    WHEN s.end_date IS NOT NULL AND s.end_date < ${asOf}::date THEN 'ended'
    WHEN s.start_date > ${asOf}::date THEN 'scheduled'
    ELSE 'active' END`;

export interface SubscriptionFilter {
  status?: string;
  customer_id?: number;
  q?: string;
  asOf: string;
  limit: number;
  offset: number;
}

export async function listSubscriptions(db: Kysely<ApltDatabase>, f: SubscriptionFilter) {
  let q = db.selectFrom('aplt_subscriptions as s').innerJoin('aplt_customers as c', 'c.id', 's.customer_id');
  if (f.customer_id) q = q.where('s.customer_id', '=', f.customer_id);
  if (f.status) q = q.where(statusSql(f.asOf), '=', f.status);
  const search = f.q?.trim();
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) =>
      eb.or([
        eb('s.description', 'ilike', like),
        eb('s.reference', 'ilike', like),
        eb('c.company', 'ilike', like),
        eb('c.email', 'ilike', like),
        eb(sql`concat_ws(' ', c.first_name, c.last_name)`, 'ilike', like),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .select([...subscriptionColumns, statusSql(f.asOf).as('status')])
      .select((eb) =>
        eb
          .selectFrom('aplt_subscription_lines as l')
          .select(
            sql<string>`coalesce(sum(round(l.quantity * l.unit_price * (100 - l.discount_percent) / 100, 2)), 0)::text`.as(
              'a',
            ),
          )
          .whereRef('l.subscription_id', '=', 's.id')
          .as('amount_excl_vat'),
      )
      .orderBy('s.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findSubscription(
  db: Kysely<ApltDatabase>,
  id: number,
  opts: { forUpdate?: boolean; asOf?: string } = {},
) {
  let q = db
    .selectFrom('aplt_subscriptions as s')
    .innerJoin('aplt_customers as c', 'c.id', 's.customer_id')
    .select([...subscriptionColumns, statusSql(opts.asOf ?? '0001-01-01').as('status')])
    .where('s.id', '=', id);
  if (opts.forUpdate) q = q.forUpdate('s');
  return q.executeTakeFirst();
}

export async function findLines(db: Kysely<ApltDatabase>, subscriptionId: number) {
  return db
    .selectFrom('aplt_subscription_lines')
    .select([
      'id',
      'line_no',
      'line_type',
      'product_id',
      'sku',
      'description',
      'quantity',
      'unit_price',
      'discount_percent',
      'vat_rate',
    ])
    .where('subscription_id', '=', subscriptionId)
    .orderBy('line_no')
    .execute();
}

export async function insertSubscription(db: Kysely<ApltDatabase>, values: Insertable<Subscriptions>) {
  const row = await db
    .insertInto('aplt_subscriptions')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateSubscription(db: Kysely<ApltDatabase>, id: number, values: SubscriptionChanges) {
  if (!Object.keys(values).length) return;
  await db.updateTable('aplt_subscriptions').set(values).where('id', '=', id).execute();
}

export async function replaceLines(
  db: Kysely<ApltDatabase>,
  subscriptionId: number,
  lines: SubscriptionLineValues[],
) {
  await db.deleteFrom('aplt_subscription_lines').where('subscription_id', '=', subscriptionId).execute();
  if (!lines.length) return;
  await db
    .insertInto('aplt_subscription_lines')
    .values(lines.map((l, i) => ({ ...l, subscription_id: subscriptionId, line_no: i + 1 })))
    .execute();
}

export async function productExists(db: Kysely<ApltDatabase>, id: number): Promise<boolean> {
  const row = await db.selectFrom('aplt_products').select('id').where('id', '=', id).executeTakeFirst();
  return !!row;
}

/** Subscriptions that count on `date`: started, not ended, not paused (oldest first). */
export async function dueSubscriptionIds(db: Kysely<ApltDatabase>, date: string): Promise<number[]> {
  const rows = await db
    .selectFrom('aplt_subscriptions')
    .select('id')
    .where('start_date', '<=', sql<string>`${date}::date`)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', sql<string>`${date}::date`)]))
    .where('paused_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function findPeriodInvoice(
  db: Kysely<ApltDatabase>,
  subscriptionId: number,
  periodStart: string,
) {
  return db
    .selectFrom('aplt_subscription_invoices')
    .select(['invoice_id', 'billing_run_id'])
    .where('subscription_id', '=', subscriptionId)
    .where('period_start', '=', sql<string>`${periodStart}::date`)
    .executeTakeFirst();
}

export async function insertPeriodInvoice(
  db: Kysely<ApltDatabase>,
  row: {
    subscription_id: number;
    period_start: string;
    period_end: string;
    invoice_id: number;
    billing_run_id: number | null;
  },
) {
  await db.insertInto('aplt_subscription_invoices').values(row).execute();
}

/** A subscription's invoices, newest period first, with the invoice's number, date and amounts. */
export async function invoicesOfSubscription(
  db: Kysely<ApltDatabase>,
  subscriptionId: number,
  limit: number,
  offset: number,
) {
  const base = db
    .selectFrom('aplt_subscription_invoices as si')
    .innerJoin('aplt_invoice_headers as h', 'h.id', 'si.invoice_id')
    .where('si.subscription_id', '=', subscriptionId);
  const [rows, total] = await Promise.all([
    base
      .select([
        'h.id',
        'h.invoice_number',
        sql<string>`h.issue_date::text`.as('issue_date'),
        sql<string>`h.due_date::text`.as('due_date'),
        'h.subtotal',
        'h.vat_total',
        'h.total',
        'h.paid_total',
        'h.credited_total',
        sql<string>`si.period_start::text`.as('period_start'),
        sql<string>`si.period_end::text`.as('period_end'),
        'si.billing_run_id',
      ])
      .orderBy('si.period_start', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

const runColumns = [
  'id',
  sql<string>`billing_date::text`.as('billing_date'),
  'trigger',
  'status',
  'created_count',
  'skipped_count',
  'failed_count',
  'created',
  'failures',
  'actor',
  'started_at',
  'finished_at',
] as const;

export async function insertRun(
  db: Kysely<ApltDatabase>,
  row: { billing_date: string; trigger: 'schedule' | 'manual'; actor: string | null },
) {
  const r = await db.insertInto('aplt_billing_runs').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function finishRun(
  db: Kysely<ApltDatabase>,
  id: number,
  values: {
    status: 'succeeded' | 'failed';
    created_count: number;
    skipped_count: number;
    failed_count: number;
    created: unknown[];
    failures: unknown[];
  },
) {
  await db
    .updateTable('aplt_billing_runs')
    .set({
      ...values,
      created: JSON.stringify(values.created),
      failures: JSON.stringify(values.failures),
      finished_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Runs still "running" long after any run could have ended were stopped by a crash: they are
 * closed as failed, so the list does not show them running for ever. What they committed stays.
 */
export async function closeAbandonedRuns(db: Kysely<ApltDatabase>, olderThanMinutes: number) {
  await db
    .updateTable('aplt_billing_runs')
    .set({
      status: 'failed',
      finished_at: sql`now()`,
      failures: sql`failures || '[{"message": "the run stopped before it finished (process ended)"}]'::jsonb`,
    })
    .where('status', '=', 'running')
    .where('started_at', '<', sql<Date>`now() - make_interval(mins => ${olderThanMinutes})`)
    .execute();
}

export async function findRun(db: Kysely<ApltDatabase>, id: number) {
  return db.selectFrom('aplt_billing_runs').select(runColumns).where('id', '=', id).executeTakeFirst();
}

export async function listRuns(db: Kysely<ApltDatabase>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('aplt_billing_runs')
      .select(runColumns)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('aplt_billing_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}
