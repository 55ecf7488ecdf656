import { type JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type JobName, type JobPayload, queueCatalog, type QueueName } from './catalog';

/** Producer side: validates the payload against the catalog and applies the queue's retry policy. */
export class QueueClient {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<Q extends QueueName, J extends JobName<Q>>(
    queue: Q,
    job: J,
    payload: JobPayload<Q, J>,
    opts: JobsOptions = {},
  ): Promise<string> {
    const spec = queueCatalog[queue];
    const schema = (spec.jobs as Record<string, { parse(v: unknown): unknown }>)[job];
    if (!schema) throw new Error(`Queue ${queue} has no job ${job}`);
    const data = schema.parse(payload);
    const added = await this.queue(queue).add(job, data, {
      attempts: spec.attempts,
      backoff: spec.backoffMs > 0 ? { type: 'exponential', delay: spec.backoffMs } : undefined,
      removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
      removeOnFail: { age: 30 * 24 * 3600 },
      ...opts,
    });
    return String(added.id);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
