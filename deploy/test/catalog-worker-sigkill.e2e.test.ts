import { type ChildProcess, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { createRedis, QueueClient, type Redis } from '@aplt/queue';
import {
  createTestFleet,
  startTestRedisServer,
  type TestFleet,
  type TestRedisServer,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSuppliersAndCategories } from '../../services/catalog/test/helpers';

/**
 * Issue #18: the only catalog worker (the real services/catalog/src/worker.ts process) is killed
 * with SIGKILL in the middle of a connector run. The run is one transaction, so nothing of it
 * stays; the worker is started again, BullMQ's stalled-job check (QUEUE_LOCK_DURATION_MS,
 * QUEUE_STALLED_INTERVAL_MS, short here) hands the job back, and the run completes once. And the
 * worker's start-up check of Redis, against a redis-server with the old settings: refused under
 * NODE_ENV=production, a loud warning otherwise.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCTS = 15_000;
// More than one chunk of the import (10,000 products) is sent before the feed stalls, so the
// killed run has written into its transaction.
const SENT_BEFORE_STALL = 12_000;

// Every 100th product has no name: a reject, written outside the run's transaction.
const REJECTED = PRODUCTS / 100;

function product(i: number) {
  return {
    master_code: `KX${i}`,
    master_id: String(50_000_000 + i),
    product_name: i % 100 === 0 ? null : { nl: `Product ${i}`, en: `Product ${i}` },
    brand: 'kx',
    category_code: 'pens',
    printable: 'yes',
    variants: [{ variant_id: String(i), sku: `KX${i}-01`, color_code: '01', color_description: 'Wit' }],
  };
}

/**
 * A supplier feed host: the first download sends part of the products and then stalls (the run
 * is mid-import when the worker dies); every later download sends the whole feed.
 */
async function startStallingFeed() {
  const items = Array.from({ length: PRODUCTS }, (_, i) => JSON.stringify(product(i + 1)));
  const stalled: ServerResponse[] = [];
  let downloads = 0;
  const server: Server = createServer((req, res) => {
    if (!req.url?.endsWith('/01/products.json')) {
      res.writeHead(404).end();
      return;
    }
    downloads++;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (downloads === 1) {
      res.write(`[${items.slice(0, SENT_BEFORE_STALL).join(',')}`);
      stalled.push(res);
    } else {
      res.end(`[${items.join(',')}]`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    downloads: () => downloads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The catalog worker as the fleet runs it; resolves once it logged that its workers started. */
function startCatalogWorker(env: Record<string, string>): {
  child: ChildProcess;
  started: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/worker.ts'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('"msg":"workers started"')) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`catalog worker exited (${code ?? signal}) before it started:\n${stderr}`)),
    );
  });
  started.catch(() => {});
  return { child, started, exited };
}

/** Polls `read` until `done` holds; fails past the deadline with the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('catalog worker killed with SIGKILL in the middle of a connector run', () => {
  let fleet: TestFleet;
  let redis: TestRedisServer;
  let feed: Awaited<ReturnType<typeof startStallingFeed>>;
  let producer: Redis;
  let queues: QueueClient;
  let env: Record<string, string>;
  const running: ChildProcess[] = [];
  const prefix = `k${process.pid}`;
  const db = (): Kysely<ApltDatabase> => fleet.tenantDbs.get('master')!.aplt.db;

  beforeAll(async () => {
    [fleet, redis, feed] = await Promise.all([
      createTestFleet([{ id: 'master', kind: 'master' }]),
      startTestRedisServer(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
      startStallingFeed(),
    ]);
    await seedSuppliersAndCategories(db(), (code) => `${feed.url}/${code}`);
    producer = createRedis(redis.url);
    queues = new QueueClient(producer, prefix);
    env = {
      ...fleet.env,
      ...testSecrets(),
      NODE_ENV: 'production',
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      // A killed worker's job is back in the queue within about 2 + 2 x 0.5 s.
      QUEUE_LOCK_DURATION_MS: '2000',
      QUEUE_STALLED_INTERVAL_MS: '500',
      LOG_LEVEL: 'warn',
    };
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await queues?.close();
    producer?.disconnect();
    await Promise.allSettled([feed?.close(), redis?.cleanup(), fleet?.cleanup()]);
  });

  it('leaves no rows of the killed run; the restarted worker takes the job again and it completes once', async () => {
    const first = startCatalogWorker(env);
    running.push(first.child);
    await first.started;

    const run = await sql<{ id: string }>`INSERT INTO aplt_connector_sync (connector, supplier_code, source)
      VALUES ('01_products', '01', 'sigkill-test') RETURNING id`.execute(db());
    const runId = Number(run.rows[0]!.id);
    const jobId = await queues.enqueue('connectors', 'connector.run', {
      tenantId: 'master',
      connector: '01_products',
      runId,
    });

    // Mid-run: the feed's first part is read (the progress row says so, written outside the
    // run's transaction) and the import's transaction is open, waiting for the rest of the feed.
    await until(
      async () =>
        (
          await sql<{
            rows_read: number;
          }>`SELECT rows_read FROM aplt_connector_sync WHERE id = ${runId}`.execute(db())
        ).rows[0]?.rows_read ?? 0,
      (read) => read >= SENT_BEFORE_STALL,
      'rows read by the first attempt',
    );
    const rejects = async () =>
      Number(
        (
          await sql<{ n: string }>`SELECT count(*)::text AS n FROM aplt_connector_rejects
            WHERE sync_id = ${runId}`.execute(db())
        ).rows[0]?.n,
      );
    await until(rejects, (n) => n > 0, 'the first attempt’s rejects');
    await until(
      async () =>
        Number(
          (
            await sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_stat_activity
              WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()
              AND state = 'idle in transaction'`.execute(db())
          ).rows[0]?.n,
        ),
      (open) => open >= 1,
      'an open import transaction',
    );

    // The killed worker cannot remove its feed spool; the next worker to start does.
    const spoolsOf = async (pid: number | undefined) =>
      (await readdir(tmpdir())).filter((name) => name.startsWith(`aplt-import-${pid}-`));
    expect(await spoolsOf(first.child.pid)).toHaveLength(1);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await spoolsOf(first.child.pid)).toHaveLength(1);

    // The run's transaction died with its connection: not one product of it is there.
    const counts = async () =>
      (
        await sql<{ products: string; variants: string }>`SELECT
          (SELECT count(*) FROM aplt_products WHERE supplier_code = '01')::text AS products,
          (SELECT count(*) FROM aplt_product_variants v JOIN aplt_products p ON p.id = v.product_id
            WHERE p.supplier_code = '01')::text AS variants`.execute(db())
      ).rows[0]!;
    await until(
      async () =>
        Number(
          (
            await sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_stat_activity
              WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`.execute(
              db(),
            )
          ).rows[0]?.n,
        ),
      (open) => open === 0,
      'the killed run’s transaction to end',
    );
    expect(await counts()).toEqual({ products: '0', variants: '0' });
    const job = await queues.queue('connectors').getJob(jobId);
    expect(await job!.getState()).toBe('active'); // its lock has not expired yet

    // The worker comes back (here the test restarts it; the fleet's supervisor does so in the
    // fleet); the stalled check hands the job back and the run completes.
    const second = startCatalogWorker(env);
    running.push(second.child);
    await second.started;
    expect(await spoolsOf(first.child.pid)).toEqual([]);
    const done = await until(
      async () =>
        (
          await sql<{
            status: string;
            error: string | null;
            rows_read: number;
            rows_rejected: number;
          }>`SELECT status, error, rows_read, rows_rejected
            FROM aplt_connector_sync WHERE id = ${runId}`.execute(db())
        ).rows[0],
      (row) => row?.status === 'succeeded' || row?.status === 'failed',
      'the run after the restart',
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      error: null,
      rows_read: PRODUCTS,
      rows_rejected: REJECTED,
    });
    const imported = String(PRODUCTS - REJECTED);
    expect(await counts()).toEqual({ products: imported, variants: imported });
    // The killed attempt's rejects are not left beside the retry's.
    expect(await rejects()).toBe(REJECTED);
    const finished = await until(
      () => queues.queue('connectors').getJob(jobId),
      (j) => Boolean(j?.finishedOn),
      'the job to finish',
    );
    expect(await finished!.getState()).toBe('completed');
    expect(feed.downloads()).toBe(2);
    // One run row, run once more: no second run was queued for the retry.
    const runs = await sql<{ n: string }>`SELECT count(*)::text AS n FROM aplt_connector_sync
      WHERE connector = '01_products'`.execute(db());
    expect(runs.rows[0]?.n).toBe('1');

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 180_000);

  it('refuses to start under NODE_ENV=production when Redis would lose jobs, and only warns in development', async () => {
    const wrong = await startTestRedisServer(['--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru']);
    try {
      const refused = startCatalogWorker({ ...env, REDIS_URL: wrong.url, NODE_ENV: 'production' });
      const out = await refused.exited;
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `catalog-worker refuses to start: Redis at redis://127.0.0.1:${wrong.port}`,
      );
      expect(out.stderr).toContain('appendonly is "no"');
      expect(out.stderr).toContain('maxmemory-policy is "allkeys-lru"');

      const warned = startCatalogWorker({ ...env, REDIS_URL: wrong.url, NODE_ENV: 'development' });
      running.push(warned.child);
      await warned.started;
      warned.child.kill('SIGTERM');
      const after = await warned.exited;
      expect(after.code).toBe(0);
      expect(after.stderr.match(/WARNING: catalog-worker: Redis at .* would lose queued jobs/g)).toHaveLength(
        1,
      );
    } finally {
      await wrong.cleanup();
    }
  });
});
