import type { ApltDatabase, TenantDatabases, TenantRegistry } from '@aplt/db';
import { queueCatalog, type QueueClient } from '@aplt/queue';
import { isBillingEnabled } from './subscription.service';

/** Spec 1: "subscription billing job | cron 0 8 1 * * (1st of month 08:00)", in the tenants' time. */
export const BILLING_PATTERN = '0 8 1 * *';
export const BILLING_TIMEZONE = 'Europe/Amsterdam';

/** One BullMQ job scheduler per tenant that has billing on; none for a tenant that has it off. */
export const billingSchedulerId = (tenantId: string) => `subscriptions.bill:${tenantId}`;

/** The calendar day (YYYY-MM-DD) of an instant in the billing time zone. */
export const billingDay = (ms: number): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: BILLING_TIMEZONE }).format(new Date(ms));

/**
 * Creates (idempotently: upsertJobScheduler) or removes the tenant's scheduler. Redis keeps the
 * one scheduler whichever replica calls this and however often, so no process keeps a timer.
 */
export async function syncBillingSchedule(queues: QueueClient, tenantId: string, enabled: boolean) {
  const queue = queues.queue('documents');
  const id = billingSchedulerId(tenantId);
  if (!enabled) {
    await queue.removeJobScheduler(id);
    return;
  }
  const spec = queueCatalog.documents;
  await queue.upsertJobScheduler(
    id,
    { pattern: BILLING_PATTERN, tz: BILLING_TIMEZONE },
    {
      name: 'subscriptions.bill',
      data: { tenantId },
      opts: { attempts: spec.attempts, backoff: { type: 'exponential', delay: spec.backoffMs } },
    },
  );
}

/** The tenant's scheduler as Redis holds it: its pattern and next run, or null when there is none. */
export async function billingSchedule(queues: QueueClient, tenantId: string) {
  const s = await queues.queue('documents').getJobScheduler(billingSchedulerId(tenantId));
  // BullMQ answers an empty record for an id it does not hold.
  if (!s?.pattern) return null;
  return {
    pattern: s.pattern,
    timezone: s.tz ?? null,
    next_run: s.next ? new Date(s.next).toISOString() : null,
  };
}

/**
 * At start-up: every tenant's scheduler follows its setting (a tenant switched while Redis was
 * unreachable, or restored from a backup, is put right). A tenant whose database is unreachable
 * keeps what it had.
 */
export async function syncAllBillingSchedules(
  queues: QueueClient,
  deps: { registry: TenantRegistry; databases: TenantDatabases },
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  for (const tenant of await deps.registry.list()) {
    try {
      await syncBillingSchedule(
        queues,
        tenant.id,
        await isBillingEnabled(deps.databases.aplt<ApltDatabase>(tenant)),
      );
    } catch (err) {
      log.warn({ err, tenant: tenant.id }, 'subscription billing schedule not synchronised');
    }
  }
}
