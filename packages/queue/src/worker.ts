import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type JobName, type JobPayload, queueCatalog, type QueueName } from './catalog';

export type JobHandlers<Q extends QueueName> = {
  [J in JobName<Q>]: (payload: JobPayload<Q, J>, job: Job) => Promise<unknown>;
};

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
  opts: { connection: Redis; prefix: string; concurrency?: number },
): WorkerHandle {
  const spec = queueCatalog[queue];
  const jobs = spec.jobs as Record<string, { parse(v: unknown): unknown }>;
  const handlerMap = handlers as Record<string, (payload: unknown, job: Job) => Promise<unknown>>;
  const missing = Object.keys(jobs).filter((name) => typeof handlerMap[name] !== 'function');
  const unknown = Object.keys(handlerMap).filter((name) => !(name in jobs));
  if (missing.length || unknown.length) {
    throw new Error(
      `Worker for ${queue}: missing handlers [${missing.join(', ')}], unknown [${unknown.join(', ')}]`,
    );
  }
  const worker = new Worker(
    queue,
    async (job) => {
      const schema = jobs[job.name];
      const handler = handlerMap[job.name];
      if (!schema || !handler) throw new Error(`No handler for ${queue}/${job.name}`);
      return handler(schema.parse(job.data), job);
    },
    { connection: opts.connection, prefix: opts.prefix, concurrency: opts.concurrency ?? 1, autorun: true },
  );
  // Without a listener an error event would be unhandled; the job's own failure is kept by BullMQ.
  worker.on('error', () => {});
  return { worker, close: () => worker.close() };
}
