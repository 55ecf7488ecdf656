import type { ApltDatabase, Kysely } from '@aplt/db';
import { addDays, daysBetween } from '../shared/context';
import { D, money, sum } from '../shared/money';
import * as repo from './report.repository';
import { agingBuckets } from './report.schemas';

export { agingBuckets };

/**
 * Days past the due date as of the report date, bucketed not yet due (due date today or later),
 * 0-30, 31-60, 61-90, 90+; the five buckets add up to the total.
 */
export function bucketFor(daysOverdue: number): (typeof agingBuckets)[number] {
  if (daysOverdue <= 0) return 'not_yet_due';
  if (daysOverdue <= 30) return '0-30';
  if (daysOverdue <= 60) return '31-60';
  if (daysOverdue <= 90) return '61-90';
  return '90+';
}

export async function agedReceivables(db: Kysely<ApltDatabase>, asOf: string) {
  const open = (await repo.receivablesAsOf(db, asOf)).filter((r) => D(r.outstanding).gt(0));
  const invoices = open.map((r) => {
    const days = daysBetween(r.due_date, asOf);
    return {
      ...r,
      id: Number(r.id),
      customer_id: Number(r.customer_id),
      outstanding: money(r.outstanding),
      days_overdue: days,
      bucket: bucketFor(days),
    };
  });
  const buckets = Object.fromEntries(
    agingBuckets.map((b) => [
      b,
      money(sum(invoices.filter((i) => i.bucket === b).map((i) => i.outstanding))),
    ]),
  );
  const byCustomer = new Map<
    number,
    { customer_id: number; customer: string | null; total: string } & Record<string, string | number | null>
  >();
  for (const i of invoices) {
    const row = byCustomer.get(i.customer_id) ?? {
      customer_id: i.customer_id,
      customer: i.customer,
      total: '0.00',
      ...Object.fromEntries(agingBuckets.map((b) => [b, '0.00'])),
    };
    row[i.bucket] = money(D(row[i.bucket] as string).plus(i.outstanding));
    row.total = money(D(row.total).plus(i.outstanding));
    byCustomer.set(i.customer_id, row);
  }
  return {
    as_of: asOf,
    buckets,
    // Kept beside buckets.not_yet_due for clients written before the bucket existed.
    not_yet_due: buckets.not_yet_due!,
    total: money(sum(invoices.map((i) => i.outstanding))),
    customers: [...byCustomer.values()],
    invoices,
  };
}

export async function revenue(db: Kysely<ApltDatabase>, from: string, to: string, period: repo.Period) {
  const rows = await repo.revenueByPeriod(db, from, to, period);
  const data = rows.map((r) => ({
    ...r,
    invoiced: money(r.invoiced),
    credited: money(r.credited),
    net_revenue: money(r.net_revenue),
  }));
  return { from, to, period, data, total: money(sum(data.map((r) => r.net_revenue))) };
}

export async function vatReport(db: Kysely<ApltDatabase>, from: string, to: string, period: repo.Period) {
  const rows = await repo.vatByPeriod(db, from, to, period);
  const data = rows.map((r) => ({
    ...r,
    vat_rate: D(r.vat_rate).toFixed(2),
    taxable_amount: money(r.taxable_amount),
    vat_amount: money(r.vat_amount),
  }));
  return { from, to, period, data, vat_total: money(sum(data.map((r) => r.vat_amount))) };
}

/** KPIs: open quotation value, conversion rate (accepted / created, last 365 days), revenue this month, overdue amount. */
export async function dashboard(db: Kysely<ApltDatabase>, asOf: string) {
  const monthStart = `${asOf.slice(0, 7)}-01`;
  const yearAgo = addDays(asOf, -365);
  const [q, rev, aged] = await Promise.all([
    repo.quotationStats(db, yearAgo, asOf, asOf),
    repo.revenueByPeriod(db, monthStart, asOf, 'month'),
    agedReceivables(db, asOf),
  ]);
  const overdue = aged.invoices.filter((i) => i.days_overdue > 0);
  return {
    as_of: asOf,
    open_quotations_value: money(q.open_value),
    open_quotations_count: q.open_count,
    conversion_rate: q.created ? D(q.accepted).dividedBy(q.created).toDecimalPlaces(4).toString() : '0',
    quotations_created: q.created,
    quotations_accepted: q.accepted,
    revenue_this_month: money(sum(rev.map((r) => r.net_revenue))),
    overdue_amount: money(sum(overdue.map((i) => i.outstanding))),
    overdue_invoices: overdue.length,
    receivables_total: aged.total,
  };
}
