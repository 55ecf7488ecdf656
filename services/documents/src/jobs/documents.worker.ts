import type { ApltDatabase, TenantDatabases, TenantRegistry } from '@aplt/db';
import { type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import { expireDueQuotations } from '../quotations/quotation.service';
import { billingDay } from '../subscriptions/billing.scheduler';
import { runBilling } from '../subscriptions/billing.service';
import { isBillingEnabled } from '../subscriptions/subscription.service';

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The documents queue's worker: quotations.expire marks open quotations past their validity as
 * expired, for one tenant or (no tenantId) every tenant with an aplt database. A tenant that
 * fails does not stop the others; the job fails afterwards so BullMQ retries it.
 *
 * subscriptions.bill invoices one tenant's active subscriptions for the period containing the
 * day the job was scheduled for (or its `date`), when the tenant has billing on. A subscription
 * that fails leaves the others committed and fails the job afterwards, so a retry (a new run,
 * idempotent per subscription and period) completes the rest.
 */
export function startDocumentsWorker(
  deps: { registry: TenantRegistry; databases: TenantDatabases },
  opts: { connection: Redis; prefix: string; log?: Log },
): WorkerHandle {
  const log: Log = opts.log ?? { info: () => {}, error: () => {} };
  return startWorker(
    'documents',
    {
      'quotations.expire': async ({ tenantId }) => {
        const tenants = tenantId ? [await deps.registry.get(tenantId)] : await deps.registry.list();
        const expired: Record<string, string[]> = {};
        const failed: string[] = [];
        for (const t of tenants) {
          if (!t) continue;
          try {
            const rows = await expireDueQuotations(deps.databases.aplt<ApltDatabase>(t));
            expired[t.id] = rows.map((r) => r.quotation_number);
          } catch {
            failed.push(t.id);
          }
        }
        if (failed.length) throw new Error(`quotations.expire failed for ${failed.join(', ')}`);
        return { expired };
      },
      'subscriptions.bill': async ({ tenantId, date }, job) => {
        const tenant = await deps.registry.get(tenantId);
        if (!tenant) return { tenantId, skipped: 'unknown tenant' };
        const db = deps.databases.aplt<ApltDatabase>(tenant);
        // A scheduler left behind after billing was switched off bills nothing (sync removes it).
        if (!date && !(await isBillingEnabled(db))) return { tenantId, skipped: 'billing disabled' };
        // The day the scheduler meant, also on a retry the next day.
        const scheduledFor = (job.opts as { prevMillis?: number }).prevMillis ?? job.timestamp;
        const report = await runBilling(db, {
          date: date ?? billingDay(scheduledFor),
          trigger: date ? 'manual' : 'schedule',
          actor: null,
          log,
        });
        log.info(
          {
            tenant: tenantId,
            billing_run_id: report.run_id,
            billing_date: report.billing_date,
            created: report.created.map((c) => c.invoice_number),
            skipped: report.skipped,
            failed: report.failures.map((f) => f.subscription_id),
          },
          `subscription billing ${report.billing_date}: ${report.created.length} invoice(s) created, ${report.skipped} skipped, ${report.failures.length} failed`,
        );
        if (report.failures.length)
          throw new Error(
            `subscription billing run ${report.run_id} failed for subscription(s) ${report.failures.map((f) => f.subscription_id).join(', ')}`,
          );
        return { tenantId, ...report };
      },
    },
    { connection: opts.connection, prefix: opts.prefix },
  );
}

/** Daily at 00:05: a quotation expires the day after its valid_until. Idempotent (upsert). */
export async function scheduleQuotationExpiry(queues: QueueClient): Promise<void> {
  await queues.queue('documents').upsertJobScheduler(
    'quotations.expire.daily',
    { pattern: '5 0 * * *' },
    {
      name: 'quotations.expire',
      data: {},
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
    },
  );
}
