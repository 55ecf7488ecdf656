import { queueCatalog, type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';

/** Hourly, at minute 0 (issue #16: was a setInterval in every replica). */
export const DRAFT_PURGE_SCHEDULER_ID = 'drafts.purge.hourly';
export const DRAFT_PURGE_PATTERN = '0 * * * *';

/**
 * Abandoned drafts and their files are purged by one BullMQ job scheduler that Redis holds
 * once, whichever replica upserts it, and by whichever worker takes the job, instead of a timer
 * in every process. Purging is idempotent, so a retried or late job does no harm.
 */
export async function scheduleDraftPurge(queue: QueueClient): Promise<void> {
  const spec = queueCatalog['logo-modal'];
  await queue.queue('logo-modal').upsertJobScheduler(
    DRAFT_PURGE_SCHEDULER_ID,
    { pattern: DRAFT_PURGE_PATTERN },
    {
      name: 'drafts.purge',
      data: {},
      opts: {
        attempts: spec.attempts,
        backoff: { type: 'exponential', delay: spec.backoffMs },
        removeOnComplete: { count: 48 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    },
  );
}

export function startDraftPurgeWorker(
  purge: () => Promise<number>,
  opts: { connection: Redis; prefix: string; log: { info(obj: object, msg: string): void } },
): WorkerHandle {
  return startWorker(
    'logo-modal',
    {
      'drafts.purge': async () => {
        const purged = await purge();
        if (purged > 0) opts.log.info({ purged }, 'abandoned drafts cancelled');
        return { purged };
      },
    },
    { connection: opts.connection, prefix: opts.prefix },
  );
}
