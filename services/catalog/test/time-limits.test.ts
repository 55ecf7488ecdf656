import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ApltDatabase, type CommerceDatabase, type Kysely, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createRedis, QueueClient, type Redis, type WorkerHandle } from '@aplt/queue';
import {
  createTestFleet,
  createTestRedis,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { findConnector } from '../src/connectors/connector-registry';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun, getRun, type SyncRun } from '../src/connectors/sync-run.repository';
import { startCatalogWorkers } from '../src/workers';
import { adminToken, eventually, fixtures, seedSuppliersAndCategories } from './helpers';

/** A row of a raw query whose columns the test states in the query itself. */
type Row = Record<string, unknown>;

/**
 * A supplier host that sends the start of a products feed (one changed product), then one space
 * every 50 ms, forever: a download that never ends unless the client gives up.
 */
async function startTricklingFeed() {
  const open = new Set<ServerResponse>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(
      JSON.stringify([
        {
          master_code: 'MO1001',
          product_name: { nl: 'Half geïmporteerde naam' },
          variants: [{ sku: 'MO1001-04', color_code: '04' }],
        },
      ]).slice(0, -1) + ',',
    );
    const timer = setInterval(() => res.write(' '), 50);
    open.add(res);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/products.json`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Holds an exclusive lock on `table` (as a long statement elsewhere would) until released. */
async function holdLock<DB>(db: Kysely<DB>, table: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const ready = new Promise<void>((resolve) => (locked = resolve));
  const done = db.transaction().execute(async (trx) => {
    await sql`LOCK TABLE ${sql.table(table)} IN ACCESS EXCLUSIVE MODE`.execute(trx);
    locked();
    await released;
  });
  await ready;
  return async () => {
    release();
    await done;
  };
}

describe('per-queue time limits (CATALOG_*_TIME_LIMIT_SECONDS)', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let feed: Awaited<ReturnType<typeof startTricklingFeed>>;
  let master: Kysely<ApltDatabase>;
  let token: string;
  let env: Record<string, string | undefined>;
  const logs: Array<{ msg: string; extra: Record<string, unknown> }> = [];

  /** Workers with the given limits on the test's Redis prefix, logging into `logs`. */
  const startWorkers = (limits: Record<string, string>) => {
    const connection: Redis = createRedis(redis.url, { forWorker: true });
    const config: Config = loadConfig({ ...env, ...limits });
    const handles: WorkerHandle[] = startCatalogWorkers({
      registry: fleet.registry,
      databases: fleet.databases,
      connection,
      config,
      log: (msg, extra) => logs.push({ msg, extra: (extra ?? {}) as Record<string, unknown> }),
    });
    return async () => {
      await Promise.all(handles.map((h) => h.close()));
      connection.disconnect();
    };
  };
  const tight = {
    CATALOG_CONNECTOR_TIME_LIMIT_SECONDS: '1',
    CATALOG_COMMERCE_SYNC_TIME_LIMIT_SECONDS: '1',
    CATALOG_TENANT_UPDATE_TIME_LIMIT_SECONDS: '1',
  };

  const api = async (method: 'GET' | 'POST', url: string, body?: object) =>
    app.inject({
      method,
      url,
      headers: { ...viaProxy('master.localhost'), authorization: `Bearer ${token}` },
      ...(body ? { payload: body } : {}),
    });
  const finished = (id: number) =>
    eventually(async () => {
      const run = await getRun(master, id);
      return run && (run.status === 'failed' || run.status === 'succeeded') ? run : undefined;
    }, `run ${id} to finish`);
  const stopped = (queue: string, runId: number) =>
    eventually(
      async () =>
        logs.find((l) => l.msg === 'job stopped' && l.extra.queue === queue && l.extra.runId === runId),
      `${queue} run ${runId} to reach its limit`,
    );
  const count = async <DB>(db: Kysely<DB>, table: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!.n;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }]);
    redis = await createTestRedis();
    feed = await startTricklingFeed();
    master = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    await seedSuppliersAndCategories(master, (code) => join(fixtures, code));
    // The catalog before the slow runs: supplier 01 imported without any limit.
    for (const kind of ['products', 'stock', 'prices', 'printdata']) {
      const run = await createRun(master, { connector: `01_${kind}` });
      await runConnector(master, run.id, findConnector(`01_${kind}`)!, {
        batchSize: 100,
        defaultMarginPercent: '40',
      });
      expect((await getRun(master, run.id))!.status).toBe('succeeded');
    }
    env = {
      ...fleet.env,
      LOG_LEVEL: 'silent',
      ...testSecrets(),
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      // One row per batch: the slow feed's first product is written inside the run's transaction.
      CATALOG_BATCH_SIZE: '1',
    };
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(env),
    );
    token = await adminToken('master');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await feed?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  it('reads the limits from the environment, defaulting to the queue catalog, and refuses nonsense', () => {
    const defaults = loadConfig({ ...testSecrets() });
    expect(defaults.CATALOG_CONNECTOR_TIME_LIMIT_SECONDS).toBe(1800);
    expect(defaults.CATALOG_COMMERCE_SYNC_TIME_LIMIT_SECONDS).toBe(1800);
    expect(defaults.CATALOG_TENANT_UPDATE_TIME_LIMIT_SECONDS).toBe(1800);
    expect(() => loadConfig({ ...testSecrets(), CATALOG_CONNECTOR_TIME_LIMIT_SECONDS: '0' })).toThrow(
      /CATALOG_CONNECTOR_TIME_LIMIT_SECONDS/,
    );
  });

  it('stops a connector run whose feed trickles past the limit: rolled back, failed with the reason, free to run again', async () => {
    const productsBefore = await sql<Row>`SELECT sku, name_nl FROM aplt_products ORDER BY sku`.execute(
      master,
    );
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,products}', ${JSON.stringify(feed.url)}::jsonb)
      WHERE code = '01'`.execute(master);
    const stopWorkers = startWorkers(tight);
    let run: SyncRun;
    let jobId: string;
    try {
      const start = await api('POST', '/admin/connectors/sync?connector=01_products');
      expect(start.statusCode, start.body).toBe(202);
      jobId = start.json().job_id;
      run = await finished(start.json().run_id);
    } finally {
      await stopWorkers();
    }
    expect(run).toMatchObject({ status: 'failed', error: 'time limit of 1 s exceeded', rows_read: 1 });
    // The changed product was written inside the run's transaction; the rollback took it back.
    expect(
      (await sql<Row>`SELECT sku, name_nl FROM aplt_products ORDER BY sku`.execute(master)).rows,
    ).toEqual(productsBefore.rows);
    // The download was cancelled, not left trickling.
    await eventually(async () => (feed.open.size === 0 ? true : undefined), 'the feed connection to close');
    const job = await app.catalogDeps.queues.queue('connectors').getJob(jobId);
    expect(await job!.getState()).toBe('failed');
    expect(job!.failedReason).toBe('time limit of 1 s exceeded');

    // The run slot is free: the next start is accepted and, with the normal limit, succeeds.
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, '{feeds,products}', ${JSON.stringify(join(fixtures, '01/products.json'))}::jsonb)
      WHERE code = '01'`.execute(master);
    const again = await api('POST', '/admin/connectors/sync?connector=01_products');
    expect(again.statusCode, again.body).toBe(202);
    const stopNormal = startWorkers({});
    try {
      expect(await finished(again.json().run_id)).toMatchObject({ status: 'succeeded', error: null });
    } finally {
      await stopNormal();
    }
  });

  it('stops a commerce sync past its limit: the shop catalog is left as it was and the sync can start again', async () => {
    const commerce = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('master'))!);
    expect(await count(commerce, 'product')).toBe(0);
    // The sync's first write waits on this lock until the limit has passed.
    const release = await holdLock(commerce, 'product_category');
    const stopWorkers = startWorkers(tight);
    let run: SyncRun;
    try {
      const start = await api('POST', '/admin/connectors/commerce-sync');
      expect(start.statusCode, start.body).toBe(202);
      await stopped('commerce-sync', start.json().run_id);
      await release();
      run = await finished(start.json().run_id);
    } finally {
      await stopWorkers();
    }
    expect(run).toMatchObject({ status: 'failed', error: 'time limit of 1 s exceeded' });
    expect(await count(commerce, 'product_category')).toBe(0);
    expect(await count(commerce, 'product')).toBe(0);

    const again = await api('POST', '/admin/connectors/commerce-sync');
    expect(again.statusCode, again.body).toBe(202);
    const stopNormal = startWorkers({});
    try {
      expect(await finished(again.json().run_id)).toMatchObject({ status: 'succeeded' });
    } finally {
      await stopNormal();
    }
    expect(await count(commerce, 'product')).toBe(2);
  });

  it('stops a tenant update past its limit: the tenant keeps its catalog and the update can start again', async () => {
    const acme = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('acme'))!);
    const release = await holdLock(acme, 'aplt_suppliers');
    const stopWorkers = startWorkers(tight);
    let run: SyncRun;
    try {
      const start = await api('POST', '/admin/tenant-update', { tenant_ids: ['acme'] });
      expect(start.statusCode, start.body).toBe(202);
      await stopped('tenant-update', start.json().run_id);
      await release();
      run = await finished(start.json().run_id);
    } finally {
      await stopWorkers();
    }
    expect(run).toMatchObject({ status: 'failed', error: 'time limit of 1 s exceeded' });
    expect(await count(acme, 'aplt_suppliers')).toBe(0);
    expect(await count(acme, 'aplt_products')).toBe(0);

    const again = await api('POST', '/admin/tenant-update', { tenant_ids: ['acme'] });
    expect(again.statusCode, again.body).toBe(202);
    const stopNormal = startWorkers({});
    try {
      expect(await finished(again.json().run_id)).toMatchObject({ status: 'succeeded' });
    } finally {
      await stopNormal();
    }
    expect(await count(acme, 'aplt_products')).toBe(3);
  });
  it('fails a run whose job failed every attempt before the run could record why, so its connector is free again', async () => {
    // A connector this version no longer knows (a job queued before an upgrade): each attempt
    // fails before the run starts; the last one records the failure on the run.
    const run = await createRun(master, { connector: '99_products' });
    const producer = createRedis(redis.url);
    const queues = new QueueClient(producer, redis.prefix);
    const stopWorkers = startWorkers({});
    try {
      await queues.enqueue('connectors', 'connector.run', {
        tenantId: 'master',
        connector: '99_products',
        runId: run.id,
      });
      // Three attempts with their backoff (2 s, then 4 s): up to two minutes on a loaded machine.
      const failed = await eventually(
        async () => {
          const r = await getRun(master, run.id);
          return r?.status === 'failed' ? r : undefined;
        },
        `run ${run.id} to fail`,
        1_200,
      );
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'Unknown connector 99_products',
      });
    } finally {
      await stopWorkers();
      await queues.close();
      producer.disconnect();
    }
    const again = await createRun(master, { connector: '99_products' });
    expect(again.status).toBe('queued');
  });
});
