import { createTestRedis, type TestRedis } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, QueueClient, startWorker } from '../src';

describe('queue catalog, producer and worker', () => {
  let r: TestRedis;
  beforeAll(async () => {
    r = await createTestRedis();
  });
  afterAll(() => r?.cleanup());

  it('refuses a payload that does not match the job schema, before it reaches Redis', async () => {
    const client = new QueueClient(createRedis(r.url), r.prefix);
    try {
      await expect(
        client.enqueue('connectors', 'connector.run', { tenantId: '', connector: 'x', runId: 1 } as never),
      ).rejects.toThrow();
      expect(await client.queue('connectors').count()).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('refuses to start a worker that misses a handler', () => {
    const connection = createRedis(r.url, { forWorker: true });
    expect(() =>
      startWorker('password-sync', { 'password-sync.run': async () => {} } as never, {
        connection,
        prefix: r.prefix,
      }),
    ).toThrow(/missing handlers \[password-sync.tenant\]/);
    connection.disconnect();
  });

  it('delivers a valid job to its handler with the parsed payload, retrying a failure', async () => {
    const connection = createRedis(r.url, { forWorker: true });
    const client = new QueueClient(createRedis(r.url), r.prefix);
    const seen: unknown[] = [];
    let attempts = 0;
    const worker = startWorker(
      'commerce-sync',
      {
        'commerce-sync.run': async (payload) => {
          attempts++;
          if (attempts === 1) throw new Error('transient');
          seen.push(payload);
        },
      },
      { connection, prefix: r.prefix },
    );
    try {
      await client.enqueue(
        'commerce-sync',
        'commerce-sync.run',
        { tenantId: 'acme', runId: 7 },
        { backoff: { type: 'fixed', delay: 10 } },
      );
      const deadline = Date.now() + 10_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 25));
      expect(seen).toEqual([{ tenantId: 'acme', runId: 7 }]);
      expect(attempts).toBe(2);
    } finally {
      await worker.close();
      await client.close();
      connection.disconnect();
    }
  });
});
