import { createTestRedis, type TestRedis } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, QueueClient, startWorker, TimeLimitExceededError } from '../src';

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

  it('aborts a job that runs past its time limit and fails it for good (no retry)', async () => {
    const connection = createRedis(r.url, { forWorker: true });
    const client = new QueueClient(createRedis(r.url), r.prefix);
    const reasons: unknown[] = [];
    let calls = 0;
    // commerce-sync has 3 attempts: a job stopped by its limit must not be retried all the same.
    const worker = startWorker(
      'commerce-sync',
      {
        'commerce-sync.run': async (_payload, _job, signal) => {
          calls++;
          // Work that only ends when told to stop, as a slow import would.
          await new Promise<void>((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              reasons.push(signal.reason);
              reject(signal.reason as Error);
            });
          });
        },
      },
      { connection, prefix: r.prefix, timeLimitMs: 200 },
    );
    try {
      const id = await client.enqueue(
        'commerce-sync',
        'commerce-sync.run',
        { tenantId: 'acme', runId: 8 },
        { backoff: { type: 'fixed', delay: 10 } },
      );
      const job = await client.queue('commerce-sync').getJob(id);
      const deadline = Date.now() + 10_000;
      while ((await job!.getState()) !== 'failed' && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 25));
      }
      const failed = await client.queue('commerce-sync').getJob(id);
      expect(await failed!.getState()).toBe('failed');
      expect(failed!.failedReason).toBe('time limit of 0.2 s exceeded');
      expect(failed!.attemptsMade).toBe(1);
      expect(calls).toBe(1);
      expect(reasons[0]).toBeInstanceOf(TimeLimitExceededError);
    } finally {
      await worker.close();
      await client.close();
      connection.disconnect();
    }
  });

  it('refuses a time limit setTimeout cannot keep', () => {
    const connection = createRedis(r.url, { forWorker: true });
    expect(() =>
      startWorker(
        'commerce-sync',
        { 'commerce-sync.run': async () => {} },
        { connection, prefix: r.prefix, timeLimitMs: 30 * 24 * 3600_000 },
      ),
    ).toThrow(/time limit must be between/);
    connection.disconnect();
  });
});
