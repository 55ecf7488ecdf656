import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { createRedis, QueueClient, startWorker } from '@aplt/queue';
import type { FastifyBaseLogger } from 'fastify';
import { RunStateStore } from './run-state.repository';
import { retryTenant, runPasswordSync } from './sync.service';

export interface PasswordSyncWorker {
  close(): Promise<void>;
}

/** The BullMQ worker of the password-sync queue, with its own Redis connections. */
export function startPasswordSyncWorker(opts: {
  registry: TenantRegistry;
  databases: TenantDatabases;
  redisUrl: string;
  prefix: string;
  runTtlSeconds: number;
  concurrency: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}): PasswordSyncWorker {
  const blocking = createRedis(opts.redisUrl, { forWorker: true });
  const plain = createRedis(opts.redisUrl);
  const queue = new QueueClient(plain, opts.prefix);
  const deps = {
    registry: opts.registry,
    databases: opts.databases,
    runs: new RunStateStore(plain, opts.prefix, opts.runTtlSeconds),
    queue,
    log: opts.log,
  };
  const handle = startWorker(
    'password-sync',
    {
      'password-sync.run': (payload) => runPasswordSync(deps, payload),
      'password-sync.tenant': (payload, job) =>
        retryTenant(deps, payload, job.attemptsMade + 1, job.opts.attempts ?? 1),
    },
    { connection: blocking, prefix: opts.prefix, concurrency: opts.concurrency },
  );
  return {
    async close() {
      await handle.close();
      await queue.close();
      blocking.disconnect();
      plain.disconnect();
    },
  };
}
