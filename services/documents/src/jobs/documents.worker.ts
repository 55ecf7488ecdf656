import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import { expireDueQuotations } from '../quotations/quotation.service';

/**
 * The documents queue's worker: quotations.expire marks open quotations past their validity as
 * expired, for one tenant or (no tenantId) every tenant with an aplt database. A tenant that
 * fails does not stop the others; the job fails afterwards so BullMQ retries it.
 */
export function startDocumentsWorker(
  deps: { registry: TenantRegistry; databases: TenantDatabases },
  opts: { connection: Redis; prefix: string },
): WorkerHandle {
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
            const rows = await expireDueQuotations(deps.databases.aplt(t));
            expired[t.id] = rows.map((r) => r.quotation_number);
          } catch {
            failed.push(t.id);
          }
        }
        if (failed.length) throw new Error(`quotations.expire failed for ${failed.join(', ')}`);
        return { expired };
      },
    },
    opts,
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
