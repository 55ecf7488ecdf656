import { startTestRedisServer, type TestRedisServer } from '@aplt/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDurableRedis, loadQueueSettings, RedisNotDurableError } from '../src';

describe('start-up check: Redis keeps queued jobs (AOF) and never evicts them (noeviction)', () => {
  // A redis-server of this test, set up the way the start command used to run it, plus eviction.
  let wrong: TestRedisServer;
  let right: TestRedisServer;
  beforeAll(async () => {
    [wrong, right] = await Promise.all([
      startTestRedisServer(['--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru']),
      startTestRedisServer([
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--maxmemory-policy',
        'noeviction',
      ]),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([wrong?.cleanup(), right?.cleanup()]);
  });

  it('in production refuses, naming both wrong settings and their fixes', async () => {
    const err = await ensureDurableRedis(wrong.url, { service: 'catalog', mode: 'enforce' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RedisNotDurableError);
    const message = (err as Error).message;
    expect(message).toContain(`catalog refuses to start: Redis at redis://127.0.0.1:${wrong.port}`);
    expect(message).toContain('appendonly is "no"');
    expect(message).toContain('--appendonly yes --appendfsync everysec');
    expect(message).toContain('maxmemory-policy is "allkeys-lru"');
    expect(message).toContain('--maxmemory-policy noeviction');
  });

  it('in development warns loudly, once per process and server', async () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const state = await ensureDurableRedis(wrong.url, { service: 'auth', mode: 'warn', warn });
    expect(state?.problems).toHaveLength(2);
    await ensureDurableRedis(wrong.url, { service: 'auth', mode: 'warn', warn });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^WARNING: auth: Redis at .* would lose queued jobs/);
    expect(warnings[0]).toContain('appendonly is "no"');
    expect(warnings[0]).toContain('NODE_ENV=production refuses to start');
  });

  it('passes a server with AOF and noeviction, and one fixed with CONFIG SET', async () => {
    const ok = await ensureDurableRedis(right.url, { service: 'catalog', mode: 'enforce' });
    expect(ok).toMatchObject({ appendonly: 'yes', maxmemoryPolicy: 'noeviction', problems: [] });

    // What the start command does to a running server with the wrong settings.
    const admin = new Redis(wrong.url);
    try {
      await admin.call('CONFIG', 'SET', 'appendonly', 'yes');
      await admin.call('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    } finally {
      admin.disconnect();
    }
    const fixed = await ensureDurableRedis(wrong.url, { service: 'catalog', mode: 'enforce' });
    expect(fixed?.problems).toEqual([]);
  });

  it('refuses in production when Redis cannot be asked, and says why', async () => {
    await expect(
      ensureDurableRedis('redis://127.0.0.1:1', { service: 'mail', mode: 'enforce' }),
    ).rejects.toThrow(/mail: cannot check Redis at redis:\/\/127\.0\.0\.1:1\/? for durable queues/);
  });

  it('follows NODE_ENV by default and REDIS_DURABILITY_CHECK when set; bad values name the variable', () => {
    expect(loadQueueSettings({ NODE_ENV: 'production' }).durabilityCheck).toBe('enforce');
    expect(loadQueueSettings({ NODE_ENV: 'development' }).durabilityCheck).toBe('warn');
    expect(loadQueueSettings({}).durabilityCheck).toBe('warn');
    expect(loadQueueSettings({ NODE_ENV: 'production', REDIS_DURABILITY_CHECK: 'off' }).durabilityCheck).toBe(
      'off',
    );
    expect(() => loadQueueSettings({ REDIS_DURABILITY_CHECK: 'maybe' })).toThrow(/REDIS_DURABILITY_CHECK/);
    expect(() => loadQueueSettings({ QUEUE_LOCK_DURATION_MS: '10' })).toThrow(/QUEUE_LOCK_DURATION_MS/);
    expect(
      loadQueueSettings({ QUEUE_LOCK_DURATION_MS: '2000', QUEUE_STALLED_INTERVAL_MS: '500' }),
    ).toMatchObject({
      lockDurationMs: 2000,
      stalledIntervalMs: 500,
      maxStalledCount: 1,
    });
  });
});
