import { Redis } from 'ioredis';
import { uniqueName } from './databases';
import { testServers } from './servers';

export interface TestRedis {
  url: string;
  /** Key prefix private to this test file; pass it as REDIS_PREFIX / BullMQ prefix. */
  prefix: string;
  redis: Redis;
  cleanup(): Promise<void>;
}

export async function createTestRedis(): Promise<TestRedis> {
  const url = testServers().redisUrl;
  const prefix = uniqueName('r');
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  return {
    url,
    prefix,
    redis,
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
}
