import { join } from 'node:path';
import { type ApltDatabase, createPgDb, type Kysely, sql } from '@aplt/db';
import { createRedis, QueueClient, queueCatalog, type Redis } from '@aplt/queue';
import {
  createTestFleet,
  type HttpReceiver,
  type SmtpSink,
  startHttpReceiver,
  startSmtpSink,
  startTestRedisServer,
  type TestFleet,
  type TestRedisServer,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, seedSuppliersAndCategories } from '../../services/catalog/test/helpers';
import { type JobEvent, WorkerReplicas } from './queue-replicas';

/**
 * Issue #18: connector, callback and mail jobs run exactly once with two worker replicas (two
 * processes) taking from the same queues, and jobs queued while no worker runs survive a Redis
 * restart (append-only file) and then run once. Real processes, a real redis-server of this test
 * (AOF, everysec, noeviction), real databases, a real SMTP server and callback receiver; counted
 * twice: the job events the replicas report, and the side effects (mails received, callbacks
 * received, run rows).
 *
 * QUEUE_TEST_JOBS (default 1000) sets the jobs of each kind in the first test.
 */
const JOBS = Number(process.env['QUEUE_TEST_JOBS'] ?? 1000);
const JOBS_WHILE_DOWN = 100;

// Six tenants plus the master, each with 16 connectors (4 suppliers x 4 feed kinds): 112 runs can
// be queued at once (one queued-or-running row per connector and tenant).
const tenantIds = ['master', 't1', 't2', 't3', 't4', 't5', 't6'];
const suppliers = ['01', '02', '03', '06'];
const kinds = ['products', 'stock', 'prices', 'printdata'];
const slots = tenantIds.flatMap((tenantId) =>
  suppliers.flatMap((s) => kinds.map((k) => ({ tenantId, connector: `${s}_${k}` }))),
);

describe('queues: exactly once with two worker replicas, and across a Redis restart', () => {
  let fleet: TestFleet;
  let redis: TestRedisServer;
  let smtp: SmtpSink;
  let receiver: HttpReceiver;
  let producer: Redis;
  let queues: QueueClient;
  let replicas: WorkerReplicas;
  const prefix = `q${process.pid}`;
  // The test's own pools, one connection per connector slot of a tenant: queuing runs never
  // waits for a connection (the pools of createTestFleet hold 5).
  const pools = new Map<string, Kysely<ApltDatabase>>();
  const db = (tenantId: string): Kysely<ApltDatabase> => {
    let pool = pools.get(tenantId);
    if (!pool) {
      pool = createPgDb<ApltDatabase>(fleet.tenantDbs.get(tenantId)!.aplt.address, {
        max: 16,
        applicationName: 'queue-test',
      });
      pools.set(tenantId, pool);
    }
    return pool;
  };

  beforeAll(async () => {
    [fleet, redis, smtp, receiver] = await Promise.all([
      createTestFleet(tenantIds.map((id) => ({ id, kind: id === 'master' ? 'master' : 'tenant' }))),
      startTestRedisServer([
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--maxmemory-policy',
        'noeviction',
      ]),
      startSmtpSink(),
      startHttpReceiver(),
    ]);
    for (const id of tenantIds) await seedSuppliersAndCategories(db(id), (code) => join(fixtures, code));
    producer = createRedis(redis.url);
    queues = new QueueClient(producer, prefix);
    replicas = new WorkerReplicas({
      ...fleet.env,
      ...testSecrets(),
      NODE_ENV: 'test',
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      SMTP_PORT: String(smtp.port),
      CALLBACK_ALLOWED_NETWORKS: '127.0.0.0/8',
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    // Each step settles on its own: one that fails must not leave the databases behind.
    await Promise.allSettled([replicas?.stopAll()]);
    await Promise.allSettled([queues?.close()]);
    producer?.disconnect();
    await Promise.allSettled([...pools.values()].map((p) => p.destroy()));
    await Promise.allSettled([redis?.cleanup(), smtp?.close(), receiver?.close(), fleet?.cleanup()]);
  }, 300_000);

  /**
   * The test's own writes, tried again when no connection could be had within the pools' 3 s (a
   * connection storm on a loaded machine): nothing was written then.
   */
  async function withConnectRetry<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (attempt >= 5 || !/timeout/i.test((err as Error).message)) throw err;
      }
    }
  }

  /** A queued run row and its connector.run job, as the connectors route makes them. */
  async function queueConnectorRun(slot: { tenantId: string; connector: string }) {
    const run = await withConnectRetry(() =>
      sql<{ id: string }>`INSERT INTO aplt_connector_sync (connector, supplier_code, source)
        VALUES (${slot.connector}, ${slot.connector.slice(0, 2)}, 'queue-test') RETURNING id`.execute(
        db(slot.tenantId),
      ),
    );
    const runId = Number(run.rows[0]!.id);
    const jobId = await queues.enqueue('connectors', 'connector.run', { ...slot, runId });
    return { ...slot, runId, jobId };
  }

  /** Completed transactions waiting for their 'Add to Order' callback, in the master's database. */
  async function queueCallbacks(count: number, tag: string) {
    const rows = await sql<{ id: string }>`INSERT INTO aplt_logo_transactions
        (product_sku, quantity, status, callback_status, callback_url)
      SELECT '900-01', 10, 'completed', 'pending', ${`${receiver.url}/cb/${tag}`}
      FROM generate_series(1, ${count}) RETURNING id`.execute(db('master'));
    const ids = rows.rows.map((r) => r.id);
    const jobIds: string[] = [];
    for (const transactionId of ids) {
      jobIds.push(
        await queues.enqueue('callbacks', 'callback.deliver', {
          transactionId,
          url: `${receiver.url}/cb/${tag}`,
          integration: 'shop-a',
          baseUrl: 'http://modal.localhost:8080',
        }),
      );
    }
    return { transactionIds: ids, jobIds };
  }

  async function queueMails(count: number, tag: string) {
    const jobIds: string[] = [];
    for (let i = 0; i < count; i++) {
      jobIds.push(
        await queues.enqueue('mail', 'mail.send', {
          to: `user${i}@example.com`,
          subject: `${tag} ${i}`,
          text: `message ${i}`,
        }),
      );
    }
    return jobIds;
  }

  /**
   * Each job id completed once over all replicas, its attempts one after another (active, then
   * failed or completed, never two at once), and none lost. A failed attempt that BullMQ retried
   * is allowed (its side effect is checked separately); the retried jobs are returned.
   */
  function expectOnce(queue: string, jobIds: string[]): string[] {
    const byId = new Map<string, JobEvent[]>();
    for (const e of replicas.events) if (e.queue === queue) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
    const wrong: Array<{ id: string; events: string[] }> = [];
    const retried: string[] = [];
    for (const id of jobIds) {
      const events = byId.get(id) ?? [];
      const shown = events.map((e) => `${e.event}@${e.pid}${e.reason ? `: ${e.reason}` : ''}`);
      const sequential = events.every((e, i) => (i % 2 === 0 ? e.event === 'active' : e.event !== 'active'));
      const completions = events.filter((e) => e.event === 'completed').length;
      if (!sequential || completions !== 1 || events.at(-1)?.event !== 'completed')
        wrong.push({ id, events: shown });
      else if (events.length > 2) retried.push(`${id}: ${shown.join(', ')}`);
    }
    expect(
      wrong.slice(0, 5),
      `${queue}: ${wrong.length} of ${jobIds.length} jobs not run exactly once`,
    ).toEqual([]);
    return retried;
  }

  const completed = (queue: string, ids: Set<string>) =>
    replicas.events.filter((e) => e.queue === queue && e.event === 'completed' && ids.has(e.id)).length;

  it(`runs ${JOBS} connector, ${JOBS} callback and ${JOBS} mail jobs exactly once on two replicas`, async () => {
    await Promise.all([replicas.start(), replicas.start()]);

    // Mails and callbacks go in at once; connector runs in waves over the 112 connector slots, a
    // slot's next run queued when its last one completed (as the connectors route allows).
    const mailTag = 'exactly-once';
    const [mailJobs, callbacks] = await Promise.all([
      queueMails(JOBS, mailTag),
      queueCallbacks(JOBS, 'once'),
    ]);
    const runs: Array<{ tenantId: string; connector: string; runId: number; jobId: string }> = [];
    let next = 0;
    await Promise.all(
      slots.map(async (slot) => {
        while (next < JOBS) {
          next++;
          const run = await queueConnectorRun(slot);
          runs.push(run);
          // Completed, possibly after failed attempts (retried); all attempts failing ends the wait.
          await replicas.until(
            () =>
              replicas.count('connectors', run.jobId, 'completed') > 0 ||
              replicas.count('connectors', run.jobId, 'failed') >= queueCatalog.connectors.attempts,
            () => `connector run ${run.runId} (${slot.tenantId}/${slot.connector}) did not complete`,
            120_000,
          );
          const failures = replicas.events.filter(
            (e) => e.queue === 'connectors' && e.id === run.jobId && e.event === 'failed',
          );
          if (failures.length >= queueCatalog.connectors.attempts) {
            throw new Error(`connector run ${run.runId} failed: ${failures.map((f) => f.reason).join('; ')}`);
          }
        }
      }),
    );
    const mailIds = new Set(mailJobs);
    const callbackIds = new Set(callbacks.jobIds);
    await replicas.until(
      () => completed('mail', mailIds) >= JOBS && completed('callbacks', callbackIds) >= JOBS,
      () =>
        `mail ${completed('mail', mailIds)}/${JOBS}, callbacks ${completed('callbacks', callbackIds)}/${JOBS}`,
      600_000,
    );

    expect(runs).toHaveLength(JOBS);
    const retried = [
      ...expectOnce(
        'connectors',
        runs.map((r) => r.jobId),
      ),
      ...expectOnce('callbacks', callbacks.jobIds),
      ...expectOnce('mail', mailJobs),
    ];
    if (retried.length)
      console.info(`retried after a failed attempt: ${retried.length}\n${retried.join('\n')}`);

    // Side effects. Mail: each subject received once.
    const subjects = smtp.messages
      .map((m) => m.parsed.subject ?? '')
      .filter((s) => s.startsWith(`${mailTag} `));
    expect(subjects).toHaveLength(JOBS);
    expect(new Set(subjects).size).toBe(JOBS);
    // Callbacks: each transaction posted once, and recorded delivered at the first attempt.
    const posted = receiver.requests
      .filter((r) => r.url === '/cb/once')
      .map((r) => r.json<{ transactionId: string }>().transactionId);
    expect(posted).toHaveLength(JOBS);
    expect(new Set(posted)).toEqual(new Set(callbacks.transactionIds));
    const callbackRows = await sql<{ callback_status: string; callback_attempts: number; n: string }>`
      SELECT callback_status, callback_attempts, count(*)::text AS n FROM aplt_logo_transactions
      WHERE callback_url = ${`${receiver.url}/cb/once`} GROUP BY 1, 2`.execute(db('master'));
    expect(callbackRows.rows).toEqual([
      { callback_status: 'delivered', callback_attempts: 1, n: String(JOBS) },
    ]);
    // Connector runs: every run succeeded, and each run of a connector read the same feed rows.
    for (const id of tenantIds) {
      const byStatus = await sql<{
        connector: string;
        status: string;
        reads: number[];
        error: string | null;
      }>`
        SELECT connector, status, array_agg(DISTINCT rows_read) AS reads, max(error) AS error
        FROM aplt_connector_sync WHERE source = 'queue-test' GROUP BY 1, 2`.execute(db(id));
      for (const row of byStatus.rows) {
        expect(row.status, `${id}/${row.connector}: ${row.error}`).toBe('succeeded');
        expect(row.reads, `${id}/${row.connector}: rows read per run`).toHaveLength(1);
      }
    }
    // Both replicas did work.
    const pids = new Set(replicas.events.filter((e) => e.event === 'completed').map((e) => e.pid));
    expect(pids.size).toBe(2);

    await replicas.stopAll();
  }, 900_000);

  it(`keeps ${JOBS_WHILE_DOWN} jobs of each kind queued while no worker runs across a Redis restart, then runs each once`, async () => {
    await replicas.stopAll();
    const seen = replicas.events.length;
    const mailJobs = await queueMails(JOBS_WHILE_DOWN, 'after-restart');
    const callbacks = await queueCallbacks(JOBS_WHILE_DOWN, 'restart');
    const runs = await Promise.all(slots.slice(0, JOBS_WHILE_DOWN).map((slot) => queueConnectorRun(slot)));

    // SIGTERM: Redis flushes its append-only file and exits; the next start loads it.
    await queues.close();
    producer.disconnect();
    await redis.stop();
    await redis.start();
    producer = createRedis(redis.url);
    queues = new QueueClient(producer, prefix);
    expect(await queues.queue('mail').getWaitingCount()).toBe(JOBS_WHILE_DOWN);
    expect(await queues.queue('callbacks').getWaitingCount()).toBe(JOBS_WHILE_DOWN);
    expect(await queues.queue('connectors').getWaitingCount()).toBe(JOBS_WHILE_DOWN);

    await Promise.all([replicas.start(), replicas.start()]);
    const all = new Set([...mailJobs, ...callbacks.jobIds, ...runs.map((r) => r.jobId)]);
    const done = () =>
      replicas.events.slice(seen).filter((e) => e.event !== 'active' && all.has(e.id)).length;
    await replicas.until(
      () => done() >= 3 * JOBS_WHILE_DOWN,
      () => `${done()} of ${3 * JOBS_WHILE_DOWN} jobs finished`,
      300_000,
    );
    const retried = [
      ...expectOnce('mail', mailJobs),
      ...expectOnce('callbacks', callbacks.jobIds),
      ...expectOnce(
        'connectors',
        runs.map((r) => r.jobId),
      ),
    ];
    if (retried.length)
      console.info(`retried after a failed attempt: ${retried.length}\n${retried.join('\n')}`);

    const subjects = smtp.messages
      .map((m) => m.parsed.subject ?? '')
      .filter((s) => s.startsWith('after-restart '));
    expect(subjects).toHaveLength(JOBS_WHILE_DOWN);
    expect(new Set(subjects).size).toBe(JOBS_WHILE_DOWN);
    const posted = receiver.requests
      .filter((r) => r.url === '/cb/restart')
      .map((r) => r.json<{ transactionId: string }>().transactionId);
    expect(new Set(posted)).toEqual(new Set(callbacks.transactionIds));
    expect(posted).toHaveLength(JOBS_WHILE_DOWN);
    for (const run of runs) {
      const row = await sql<{ status: string; error: string | null }>`SELECT status, error
        FROM aplt_connector_sync WHERE id = ${run.runId}`.execute(db(run.tenantId));
      expect(
        row.rows[0]?.status,
        `${run.tenantId}/${run.connector} run ${run.runId}: ${row.rows[0]?.error}`,
      ).toBe('succeeded');
    }
  }, 300_000);
});
