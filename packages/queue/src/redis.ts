import { Redis } from 'ioredis';

export type { Redis };

/** BullMQ needs maxRetriesPerRequest null on connections that block (workers). */
export function createRedis(url: string, opts: { forWorker?: boolean } = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: opts.forWorker ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}
