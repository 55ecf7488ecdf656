import type { ApltDatabase, Kysely } from '@aplt/db';
import { HttpError, notFound } from '@aplt/http';
import { type DraftLine, writeInvoice } from '../invoices/invoice.service';
import { lineAmount } from '../quotations/pricing.service';
import { findCustomer } from '../shared/customer.repository';
import { money } from '../shared/money';
import type { BillingInterval } from './subscription.schemas';
import * as repo from './subscription.repository';

const MONTHS: Record<BillingInterval, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** A run still "running" after this long was stopped by a crash (the job's limit is 5 minutes). */
const ABANDONED_RUN_MINUTES = 60;

export interface Period {
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The billing period that contains `date`: periods of 1, 3 or 12 months counted from the first
 * day of the start month (a quarterly subscription started in February bills Feb-Apr, May-Jul,
 * ...). Undefined before the start month.
 */
export function periodContaining(
  startDate: string,
  interval: BillingInterval,
  date: string,
): Period | undefined {
  const months = MONTHS[interval];
  const [sy, sm] = [Number(startDate.slice(0, 4)), Number(startDate.slice(5, 7)) - 1];
  const [dy, dm] = [Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1];
  const diff = dy * 12 + dm - (sy * 12 + sm);
  if (diff < 0) return undefined;
  const first = sy * 12 + sm + Math.floor(diff / months) * months;
  const start = `${Math.floor(first / 12)}-${pad((first % 12) + 1)}-01`;
  const next = first + months;
  const end = new Date(Date.UTC(Math.floor(next / 12), next % 12, 0)).toISOString().slice(0, 10);
  return { start, end };
}

const periodText: Record<string, (p: Period) => string> = {
  nl: (p) => `periode ${p.start} t/m ${p.end}`,
  en: (p) => `period ${p.start} to ${p.end}`,
  de: (p) => `Zeitraum ${p.start} bis ${p.end}`,
};

export interface CreatedInvoice {
  subscription_id: number;
  invoice_id: number;
  invoice_number: string;
  period_start: string;
  period_end: string;
  total: string;
}

type BillOutcome = { created: CreatedInvoice } | { skipped: 'already_invoiced' | 'inactive' };

/**
 * Invoices one subscription for the period containing `date`, or does nothing when that period
 * has its invoice. The subscription row is locked first, so a concurrent run waits and then sees
 * the period's key; the key (subscription, period start) is inserted in the invoice's own
 * transaction, so an invoice never exists without its key or the key without its invoice.
 */
export async function billSubscription(
  db: Kysely<ApltDatabase>,
  subscriptionId: number,
  date: string,
  runId: number | null,
  actor: string | null,
): Promise<BillOutcome> {
  return db.transaction().execute(async (trx): Promise<BillOutcome> => {
    const s = await repo.findSubscription(trx, subscriptionId, { forUpdate: true, asOf: date });
    if (!s) throw notFound(`Subscription ${subscriptionId} not found`);
    if (s.status !== 'active') return { skipped: 'inactive' };
    const period = periodContaining(s.start_date, s.billing_interval as BillingInterval, date)!;
    if (await repo.findPeriodInvoice(trx, subscriptionId, period.start))
      return { skipped: 'already_invoiced' };
    const customer = await findCustomer(trx, s.customer_id);
    if (!customer) throw new HttpError(422, 'unprocessable', `customer ${s.customer_id} does not exist`);
    const lines = await repo.findLines(trx, subscriptionId);
    const suffix = (periodText[customer.language] ?? periodText.nl!)(period);
    const drafts: DraftLine[] = lines.map((l) => ({
      line_type: l.line_type,
      product_id: l.product_id,
      sku: l.sku,
      description: `${l.description} (${suffix})`,
      quantity: l.quantity,
      unit_price: String(l.unit_price),
      discount_percent: String(l.discount_percent),
      print_unit_price: '0',
      vat_rate: String(l.vat_rate),
      line_total: money(lineAmount(l.quantity, l.unit_price, 0, l.discount_percent)),
      metadata: { subscription_id: subscriptionId, period_start: period.start, period_end: period.end },
    }));
    const header = await writeInvoice(trx, 'invoice', customer, drafts, {
      issue_date: date,
      payment_term_days: s.payment_term_days ?? undefined,
      reference: s.reference ?? `${s.description} (${suffix})`.slice(0, 200),
      actor,
    });
    await repo.insertPeriodInvoice(trx, {
      subscription_id: subscriptionId,
      period_start: period.start,
      period_end: period.end,
      invoice_id: header.id,
      billing_run_id: runId,
    });
    return {
      created: {
        subscription_id: subscriptionId,
        invoice_id: Number(header.id),
        invoice_number: String(header.invoice_number),
        period_start: period.start,
        period_end: period.end,
        total: String(header.total),
      },
    };
  });
}

export interface RunReport {
  run_id: number;
  billing_date: string;
  status: 'succeeded' | 'failed';
  created: CreatedInvoice[];
  skipped: number;
  failures: Array<{ subscription_id: number; message: string }>;
}

/** What staff may read of a failure: our own errors' messages; anything else by its SQL state only. */
function failureMessage(err: unknown): string {
  if (err instanceof HttpError) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string'
    ? `the invoice could not be written (database error ${code}; details in the service log)`
    : 'the invoice could not be written (details in the service log)';
}

/**
 * One billing run for `date`: every subscription that counts on that date (started, not ended,
 * not paused) gets the invoice of the period containing the date, each in its own transaction,
 * so one that fails leaves the others committed and a rerun completes the rest. The run is
 * recorded (created invoices, skipped, failures) for staff.
 */
export async function runBilling(
  db: Kysely<ApltDatabase>,
  opts: {
    date: string;
    trigger: 'schedule' | 'manual';
    actor: string | null;
    log?: { error(obj: object, msg: string): void };
  },
): Promise<RunReport> {
  await repo.closeAbandonedRuns(db, ABANDONED_RUN_MINUTES);
  const runId = await repo.insertRun(db, {
    billing_date: opts.date,
    trigger: opts.trigger,
    actor: opts.actor,
  });
  const created: CreatedInvoice[] = [];
  const failures: RunReport['failures'] = [];
  let skipped = 0;
  for (const id of await repo.dueSubscriptionIds(db, opts.date)) {
    try {
      const outcome = await billSubscription(db, id, opts.date, runId, opts.actor);
      if ('created' in outcome) created.push(outcome.created);
      else skipped++;
    } catch (err) {
      opts.log?.error({ err, subscription_id: id, billing_run_id: runId }, 'subscription invoice failed');
      failures.push({ subscription_id: id, message: failureMessage(err) });
    }
  }
  const status = failures.length ? 'failed' : 'succeeded';
  await repo.finishRun(db, runId, {
    status,
    created_count: created.length,
    skipped_count: skipped,
    failed_count: failures.length,
    created,
    failures,
  });
  return { run_id: runId, billing_date: opts.date, status, created, skipped, failures };
}

export const normaliseRun = (r: NonNullable<Awaited<ReturnType<typeof repo.findRun>>>) => ({
  ...r,
  id: Number(r.id),
});

export async function listRuns(db: Kysely<ApltDatabase>, limit: number, offset: number) {
  const { rows, count } = await repo.listRuns(db, limit, offset);
  return { data: rows.map(normaliseRun), count };
}

export async function loadRun(db: Kysely<ApltDatabase>, id: number) {
  const r = await repo.findRun(db, id);
  if (!r) throw notFound(`Billing run ${id} not found`, { id });
  return normaliseRun(r);
}
