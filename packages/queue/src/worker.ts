import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type JobName, type JobPayload, queueCatalog, type QueueName } from './catalog';
import { queueSettings } from './settings';

/**
 * A job's handler. `signal` aborts when the job passes its time limit (or is cancelled through
 * BullMQ); work that takes long must check it between steps and pass it to its I/O, so that it
 * stops and rolls back instead of running on. Its reason is a {@link TimeLimitExceededError}.
 */
export type JobHandlers<Q extends QueueName> = {
  [J in JobName<Q>]: (payload: JobPayload<Q, J>, job: Job, signal: AbortSignal) => Promise<unknown>;
};

/** Why a job's signal aborted when it ran past its queue's time limit. */
export class TimeLimitExceededError extends Error {
  override readonly name = 'TimeLimitExceededError';
  constructor(readonly limitMs: number) {
    super(`time limit of ${formatSeconds(limitMs)} s exceeded`);
  }
}

const formatSeconds = (ms: number) => String(Math.round(ms / 100) / 10);

export interface WorkerHandle {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * Starts a worker for one queue. Every job name of the queue must have exactly one handler:
 * the type demands it and start-up checks it again, so a job can never sit unhandled.
 */
export function startWorker<Q extends QueueName>(
  queue: Q,
  handlers: JobHandlers<Q>,
  opts: {
    connection: Redis;
    prefix: string;
    concurrency?: number;
    /** How long one job may run before its signal aborts; default the queue's `timeoutMs`. */
    timeLimitMs?: number;
    /**
     * Stalled-job detection (see settings.ts): how long a job's lock lives without renewal, how
     * often this worker looks for expired locks, how often one job may stall before it fails.
     * Default: QUEUE_LOCK_DURATION_MS, QUEUE_STALLED_INTERVAL_MS, QUEUE_MAX_STALLED_COUNT.
     */
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    maxStalledCount?: number;
  },
): WorkerHandle {
  const spec = queueCatalog[queue];
  const jobs = spec.jobs as Record<string, { parse(v: unknown): unknown }>;
  const handlerMap = handlers as Record<
    string,
    (payload: unknown, job: Job, signal: AbortSignal) => Promise<unknown>
  >;
  const missing = Object.keys(jobs).filter((name) => typeof handlerMap[name] !== 'function');
  const unknown = Object.keys(handlerMap).filter((name) => !(name in jobs));
  if (missing.length || unknown.length) {
    throw new Error(
      `Worker for ${queue}: missing handlers [${missing.join(', ')}], unknown [${unknown.join(', ')}]`,
    );
  }
  const timeLimitMs = opts.timeLimitMs ?? spec.timeoutMs;
  const settings = queueSettings();
  // setTimeout fires at once for delays beyond 2^31-1 ms: refuse them rather than abort every job.
  if (!(timeLimitMs > 0 && timeLimitMs <= 2 ** 31 - 1)) {
    throw new Error(`Worker for ${queue}: time limit must be between 1 ms and 24 days, got ${timeLimitMs}`);
  }
  const worker = new Worker(
    queue,
    // Three parameters: BullMQ then hands over its own cancellation signal (Worker.cancelJob).
    async (job: Job, _token?: string, cancelled?: AbortSignal) => {
      const schema = jobs[job.name];
      const handler = handlerMap[job.name];
      if (!schema || !handler) throw new Error(`No handler for ${queue}/${job.name}`);
      const limit = new AbortController();
      const timer = setTimeout(() => limit.abort(new TimeLimitExceededError(timeLimitMs)), timeLimitMs);
      const signal = cancelled ? AbortSignal.any([limit.signal, cancelled]) : limit.signal;
      try {
        return await handler(schema.parse(job.data), job, signal);
      } catch (err) {
        // Stopped by its limit: final, not retried - the same work would hit the same limit again.
        // (A handler that ignores the signal and fails later for its own reasons keeps its retries.)
        const reason: unknown = limit.signal.reason;
        if (reason && (err === reason || (err as { cause?: unknown } | null)?.cause === reason)) {
          throw new UnrecoverableError((reason as Error).message);
        }
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency ?? 1,
      autorun: true,
      lockDuration: opts.lockDurationMs ?? settings.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs ?? settings.stalledIntervalMs,
      maxStalledCount: opts.maxStalledCount ?? settings.maxStalledCount,
    },
  );
  // Without a listener an error event would be unhandled; the job's own failure is kept by BullMQ.
  worker.on('error', () => {});
  return { worker, close: () => worker.close() };
}
