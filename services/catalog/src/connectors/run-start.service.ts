import { type ApltDatabase, isUniqueViolation, type Kysely } from '@aplt/db';
import { conflict } from '@aplt/http';
import type { QueueClient, QueueName } from '@aplt/queue';
import { activeRun, createRun, finishRun, setJobId, type SyncRun } from './sync-run.repository';

/**
 * Starts a run of `connector` (a supplier connector, commerce_sync or tenant_update): a queued row
 * in aplt_connector_sync, then the queue job. The partial unique index allows one queued-or-running
 * row per connector, so a second start is a 409 - unless the active row is stale (its queue job
 * is gone or finished, e.g. a worker was killed mid-run): then that row is closed as failed and
 * the new run goes ahead, so one crash never blocks a connector for good.
 */
export async function startRun(
  db: Kysely<ApltDatabase>,
  queues: QueueClient,
  queue: QueueName,
  values: { connector: string; supplierCode?: string | null; triggeredBy?: string | null; metadata?: object },
  enqueue: (run: SyncRun) => Promise<string>,
): Promise<{ run: SyncRun; jobId: string }> {
  let run: SyncRun | undefined;
  for (let attempt = 0; attempt < 2 && !run; attempt++) {
    try {
      run = await createRun(db, values);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const active = await activeRun(db, values.connector);
      if (attempt > 0 || !active?.job_id || !(await isStale(queues, queue, active.job_id))) {
        throw conflict(`${values.connector} is already queued or running`, {
          connector: values.connector,
          run_id: active?.id ?? null,
        });
      }
      await finishRun(db, active.id, {
        status: 'failed',
        error: 'stale: its queue job is gone or ended without closing the run',
      });
    }
  }
  const created = run as SyncRun;
  try {
    const jobId = await enqueue(created);
    await setJobId(db, created.id, jobId);
    return { run: created, jobId };
  } catch (err) {
    await finishRun(db, created.id, { status: 'failed', error: 'could not enqueue' });
    throw err;
  }
}

async function isStale(queues: QueueClient, queue: QueueName, jobId: string): Promise<boolean> {
  const job = await queues.queue(queue).getJob(jobId);
  if (!job) return true;
  const state = await job.getState();
  return state === 'completed' || state === 'failed' || state === 'unknown';
}
