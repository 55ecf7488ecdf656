import type { ApltDatabase, Kysely } from '@aplt/db';
import { notFound, unprocessable } from '@aplt/http';
import { recordAudit } from '../shared/audit.service';
import { today } from '../shared/context';
import { findCustomer } from '../shared/customer.repository';
import { inTransaction } from '../shared/in-transaction';
import { readSettings, upsertSetting } from '../settings/settings.repository';
import type {
  CreateSubscriptionData,
  SubscriptionLineInput,
  UpdateSubscriptionData,
} from './subscription.schemas';
import * as repo from './subscription.repository';

export interface Who {
  actor: string | null;
  request_id?: string;
  ip?: string;
  user_agent?: string | null;
}

/** The aplt_settings key that turns the monthly billing job on for a tenant (off without a row). */
export const BILLING_ENABLED_KEY = 'subscription_billing_enabled';

async function checkReferences(
  db: Kysely<ApltDatabase>,
  customerId: number | undefined,
  lines?: SubscriptionLineInput[],
) {
  if (customerId !== undefined && !(await findCustomer(db, customerId)))
    throw unprocessable(`customer ${customerId} does not exist`, { customer_id: customerId });
  for (const [i, l] of (lines ?? []).entries())
    if (l.product_id !== undefined && !(await repo.productExists(db, l.product_id)))
      throw unprocessable(`lines.${i}: product ${l.product_id} does not exist`, { product_id: l.product_id });
}

const lineRows = (lines: SubscriptionLineInput[]): repo.SubscriptionLineValues[] =>
  lines.map((l) => ({
    line_type: l.line_type,
    product_id: l.product_id ?? null,
    sku: l.sku || null,
    description: l.description,
    quantity: l.quantity,
    unit_price: l.unit_price,
    discount_percent: l.discount_percent ?? '0',
    vat_rate: l.vat_rate ?? '21',
  }));

export async function loadSubscription(db: Kysely<ApltDatabase>, id: number) {
  const s = await repo.findSubscription(db, id, { asOf: today() });
  if (!s) throw notFound(`Subscription ${id} not found`, { id });
  const lines = await repo.findLines(db, id);
  return {
    ...s,
    id: Number(s.id),
    customer_id: Number(s.customer_id),
    interval: s.billing_interval,
    lines: lines.map((l) => ({
      ...l,
      id: Number(l.id),
      product_id: l.product_id == null ? null : Number(l.product_id),
    })),
  };
}

export async function listSubscriptions(
  db: Kysely<ApltDatabase>,
  f: { status?: string; customer_id?: number; q?: string; limit: number; offset: number },
) {
  const { rows, count } = await repo.listSubscriptions(db, { ...f, asOf: today() });
  return {
    data: rows.map((r) => ({
      ...r,
      id: Number(r.id),
      customer_id: Number(r.customer_id),
      interval: r.billing_interval,
    })),
    count,
  };
}

export async function createSubscription(db: Kysely<ApltDatabase>, input: CreateSubscriptionData, who: Who) {
  const id = await inTransaction(db, async (trx) => {
    await checkReferences(trx, input.customer_id, input.lines);
    const id = await repo.insertSubscription(trx, {
      customer_id: input.customer_id,
      description: input.description,
      billing_interval: input.interval,
      start_date: input.start_date,
      end_date: input.end_date ?? null,
      paused_at: input.paused ? new Date() : null,
      payment_term_days: input.payment_term_days ?? null,
      reference: input.reference || null,
      notes: input.notes || null,
      created_by: who.actor,
    });
    await repo.replaceLines(trx, id, lineRows(input.lines));
    await audit(trx, who, 'subscription.create', id, { ...input });
    return id;
  });
  return loadSubscription(db, id);
}

/** Changes what is given; `lines` replaces every line; `paused` pauses (keeps the first pause) or resumes. */
export async function updateSubscription(
  db: Kysely<ApltDatabase>,
  id: number,
  input: UpdateSubscriptionData,
  who: Who,
) {
  await inTransaction(db, async (trx) => {
    const current = await repo.findSubscription(trx, id, { forUpdate: true, asOf: today() });
    if (!current) throw notFound(`Subscription ${id} not found`, { id });
    const start = input.start_date ?? current.start_date;
    const end = input.end_date === undefined ? current.end_date : input.end_date;
    if (end && end < start)
      throw unprocessable('end_date must not be before start_date', { start_date: start, end_date: end });
    await checkReferences(trx, input.customer_id, input.lines);
    const set: repo.SubscriptionChanges = {};
    if (input.customer_id !== undefined) set.customer_id = input.customer_id;
    if (input.description !== undefined) set.description = input.description;
    if (input.interval !== undefined) set.billing_interval = input.interval;
    if (input.start_date !== undefined) set.start_date = input.start_date;
    if (input.end_date !== undefined) set.end_date = input.end_date;
    if (input.payment_term_days !== undefined) set.payment_term_days = input.payment_term_days;
    if (input.reference !== undefined) set.reference = input.reference || null;
    if (input.notes !== undefined) set.notes = input.notes || null;
    if (input.paused === true && !current.paused_at) set.paused_at = new Date();
    if (input.paused === false) set.paused_at = null;
    await repo.updateSubscription(trx, id, set);
    if (input.lines) await repo.replaceLines(trx, id, lineRows(input.lines));
    const action =
      input.paused === true
        ? 'subscription.pause'
        : input.paused === false
          ? 'subscription.resume'
          : 'subscription.update';
    await audit(trx, who, action, id, { ...input });
  });
  return loadSubscription(db, id);
}

export async function subscriptionInvoices(
  db: Kysely<ApltDatabase>,
  id: number,
  limit: number,
  offset: number,
) {
  if (!(await repo.findSubscription(db, id))) throw notFound(`Subscription ${id} not found`, { id });
  const { rows, count } = await repo.invoicesOfSubscription(db, id, limit, offset);
  return {
    data: rows.map((r) => ({
      ...r,
      id: Number(r.id),
      billing_run_id: r.billing_run_id == null ? null : Number(r.billing_run_id),
    })),
    count,
  };
}

export async function isBillingEnabled(db: Kysely<ApltDatabase>): Promise<boolean> {
  const s = await readSettings(db, [BILLING_ENABLED_KEY]);
  return s.get(BILLING_ENABLED_KEY) === 'true';
}

export async function setBillingEnabled(db: Kysely<ApltDatabase>, enabled: boolean, who: Who): Promise<void> {
  await inTransaction(db, async (trx) => {
    const from = await isBillingEnabled(trx);
    await upsertSetting(trx, {
      key: BILLING_ENABLED_KEY,
      value: String(enabled),
      value_type: 'boolean',
      description: 'Subscription billing job (1st of the month, 08:00): on when true.',
    });
    if (from !== enabled)
      await recordAudit(trx, {
        actor: who.actor,
        actor_type: 'admin',
        action: 'subscriptions.billing-settings',
        entity_type: 'settings',
        entity_id: BILLING_ENABLED_KEY,
        changes: { billing_enabled: { from, to: enabled } },
        ip: who.ip ?? null,
        user_agent: who.user_agent ?? null,
        request_id: who.request_id ?? null,
      });
  });
}

async function audit(db: Kysely<ApltDatabase>, who: Who, action: string, id: number, changes: unknown) {
  await recordAudit(db, {
    actor: who.actor,
    actor_type: 'admin',
    action,
    entity_type: 'subscription',
    entity_id: id,
    changes,
    ip: who.ip ?? null,
    user_agent: who.user_agent ?? null,
    request_id: who.request_id ?? null,
  });
}
