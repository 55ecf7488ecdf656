import { createTestRedis, type TestRedis } from '@aplt/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invalidationChannel,
  type InvalidationSubscriber,
  publishInvalidation,
  subscribeInvalidations,
} from '../src/invalidation';

/** Polls until `check` holds; fails naming what it saw once `ms` have passed. */
async function within(ms: number, check: () => boolean, what: () => unknown): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${JSON.stringify(what())}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Two subscribers stand for two replicas; each has its own Redis connection, as in production. */
describe('cache invalidation over Redis pub/sub', () => {
  let redis: TestRedis;
  const subs: InvalidationSubscriber[] = [];

  beforeAll(async () => {
    redis = await createTestRedis();
  });
  afterAll(async () => {
    for (const s of subs) s.close();
    await redis?.cleanup();
  });

  function replica(channel: string) {
    const seen = { messages: [] as string[], resyncs: 0 };
    const sub = subscribeInvalidations({
      url: redis.url,
      channel,
      onMessage: (m) => seen.messages.push(m),
      onResync: () => seen.resyncs++,
    });
    subs.push(sub);
    return { sub, seen };
  }

  it('delivers a message to every subscriber of the channel and to no other channel', async () => {
    const channel = invalidationChannel(redis.prefix, 'cache-a');
    const a = replica(channel);
    const b = replica(channel);
    const other = replica(invalidationChannel(redis.prefix, 'cache-b'));
    await Promise.all([a.sub.ready, b.sub.ready, other.sub.ready]);
    expect(a.sub.connected && b.sub.connected).toBe(true);
    await publishInvalidation(redis.redis, channel, 'acme');
    await within(
      2000,
      () => a.seen.messages.length === 1 && b.seen.messages.length === 1,
      () => [a.seen, b.seen],
    );
    expect([a.seen.messages, b.seen.messages]).toEqual([['acme'], ['acme']]);
    expect(other.seen.messages).toEqual([]);
  });

  it('asks for a resync after its link was cut (a message may have been missed), then hears again', async () => {
    const channel = invalidationChannel(redis.prefix, 'cache-c');
    const a = replica(channel);
    await a.sub.ready;
    expect(a.seen.resyncs).toBe(0);
    const list = (await redis.redis.client('LIST')) as string;
    const id = /id=(\d+) .*name=(\S+)/
      .exec(list.split('\n').find((l) => l.includes(`name=${a.sub.connectionName} `)) ?? '')
      ?.at(1);
    expect(id, 'subscriber connection in CLIENT LIST').toBeTruthy();
    await redis.redis.client('KILL', 'ID', id!);
    await within(
      5000,
      () => a.seen.resyncs === 1,
      () => a.seen,
    );
    // Re-subscribed on its own: a message after the reconnect arrives.
    await within(
      5000,
      () => {
        void publishInvalidation(redis.redis, channel, 'after');
        return a.seen.messages.includes('after');
      },
      () => a.seen,
    );
  });

  it('never throws from a publish when Redis is unreachable, and says so in the log', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => {});
    const warnings: string[] = [];
    await publishInvalidation(down, 'x', 'y', { warn: (_obj, msg) => warnings.push(msg) });
    expect(warnings).toEqual(['could not publish a cache invalidation']);
    down.disconnect();
  });
});
