import type { ApltDatabase, TenantDatabases, TenantRegistry } from '@aplt/db';
import { type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import { dueWork, type PartnerDeps, pollOrderStatus, sendOrder } from './partner-sync.service';

/**
 * The `partner-sync` worker (issue #16): `partner-sync.order` sends one order (at most once:
 * the row is claimed first), `partner-sync.status` reads one sent order's state back, and
 * `partner-sync.sweep` (scheduled, and asked for after a confirmation) queues both kinds for
 * every tenant whose partner sync is on. Job ids carry the row's last change, so a sweep that
 * runs while a job waits does not queue it twice, and a row that changed gets a new job.
 */
export function startPartnerWorker(
  deps: { registry: TenantRegistry; databases: TenantDatabases },
  partner: PartnerDeps,
  opts: { connection: Redis; prefix: string; queues: QueueClient; concurrency?: number },
): WorkerHandle {
  const tenantDb = async (tenantId: string) => {
    const tenant = await deps.registry.get(tenantId);
    return tenant ? deps.databases.aplt<ApltDatabase>(tenant) : null;
  };
  return startWorker(
    'partner-sync',
    {
      'partner-sync.order': async ({ tenantId, orderId }, _job, signal) => {
        const db = await tenantDb(tenantId);
        if (!db) return { result: 'skipped', reason: 'unknown tenant' };
        return sendOrder(db, tenantId, orderId, partner, signal);
      },
      'partner-sync.status': async ({ tenantId, orderId }, _job, signal) => {
        const db = await tenantDb(tenantId);
        if (!db) return { result: 'skipped', reason: 'unknown tenant' };
        return pollOrderStatus(db, tenantId, orderId, partner, signal);
      },
      'partner-sync.sweep': async ({ tenantId }) => {
        const tenants = tenantId ? [await deps.registry.get(tenantId)] : await deps.registry.list();
        const queued: Record<string, { sends: number[]; polls: number[] }> = {};
        const failed: string[] = [];
        for (const t of tenants) {
          if (!t) continue;
          try {
            const { sends, polls } = await dueWork(deps.databases.aplt<ApltDatabase>(t), partner.config);
            for (const s of sends)
              await opts.queues.enqueue(
                'partner-sync',
                'partner-sync.order',
                { tenantId: t.id, orderId: s.orderId },
                { jobId: `send-${t.id}-${s.orderId}-${s.stamp}` },
              );
            for (const p of polls)
              await opts.queues.enqueue(
                'partner-sync',
                'partner-sync.status',
                { tenantId: t.id, orderId: p.orderId },
                { jobId: `poll-${t.id}-${p.orderId}-${p.stamp}` },
              );
            if (sends.length || polls.length)
              queued[t.id] = { sends: sends.map((s) => s.orderId), polls: polls.map((p) => p.orderId) };
          } catch {
            // A tenant without an aplt database (or one that is down) does not stop the others.
            failed.push(t.id);
          }
        }
        return { queued, failed };
      },
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency ?? 4 },
  );
}

/** Every PARTNER_SWEEP_EVERY_MS (idempotent upsert of the scheduler, one per fleet). */
export async function schedulePartnerSweep(queues: QueueClient, everyMs: number): Promise<void> {
  await queues.queue('partner-sync').upsertJobScheduler(
    'partner-sync.sweep.every',
    { every: everyMs },
    {
      name: 'partner-sync.sweep',
      data: {},
      opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
    },
  );
}

export { loadPartnerConfig, type PartnerConfig } from './partner.config';
