import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecrets, loadEnv, pgEnv, redisEnv } from '@aplt/config';
import {
  type ApltDatabase,
  type ControlDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  migrateToLatest,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { createRedis, QueueClient } from '@aplt/queue';
import { buildApp } from '../src/app';
import { startCallbackWorker } from '../src/callbacks/callback.worker';
import { loadConfig } from '../src/config';
import { upsertDemoCatalog } from '../src/demo/demo-catalog';

/**
 * The logo modal on throw-away databases (control + master aplt with the demo products), its own
 * Redis prefix and file directory, with the callback worker, for benchmarks (outside vitest).
 */
export async function modalFixture() {
  const e = loadEnv({ ...pgEnv, ...redisEnv }, process.env);
  const server = { host: e.PG_HOST, port: e.PG_PORT, user: e.PG_USER, password: e.PG_PASS };
  const suffix = randomBytes(3).toString('hex');
  const names = { control: `bench_control_${suffix}`, aplt: `bench_aplt_${suffix}` };
  await ensurePgDatabase(server, names.control);
  await ensurePgDatabase(server, names.aplt);
  const control = createPgDb<ControlDatabase>({ ...server, database: names.control }, { max: 2 });
  const aplt = createPgDb<ApltDatabase>({ ...server, database: names.aplt }, { max: 2 });
  await migrateToLatest(control, 'control');
  await migrateToLatest(aplt, 'aplt');
  await upsertDemoCatalog(aplt);
  await aplt.destroy();
  const registry = new TenantRegistry(control, 60_000);
  await registry.add({
    id: 'master',
    kind: 'master',
    name: 'master',
    hosts: ['master.localhost'],
    commerceDb: { database: names.aplt },
    apltDb: { database: names.aplt },
  });
  const databases = new TenantDatabases({ commerce: server, aplt: server }, { poolMax: 8 });
  const fileDir = await mkdtemp(join(tmpdir(), 'bench-logo-files-'));
  const prefix = `bench_${suffix}`;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    FILE_STORE_DIR: fileDir,
    // Its own secret, and callbacks to a receiver on this machine.
    CALLBACK_DEFAULT_SECRET: generateSecrets().CALLBACK_DEFAULT_SECRET,
    CALLBACK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    REDIS_PREFIX: prefix,
    REDIS_URL: e.REDIS_URL,
    // One client places every order: the per-IP write limit would measure itself.
    WRITE_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const producer = createRedis(e.REDIS_URL);
  const workerConn = createRedis(e.REDIS_URL, { forWorker: true });
  const queue = new QueueClient(producer, prefix);
  const app = await buildApp({ registry, databases, control, queue, redis: producer }, config);
  const worker = startCallbackWorker({ registry, databases, connection: workerConn, prefix }, config, {
    warn: () => {},
  });
  return {
    app,
    async cleanup() {
      await app.close();
      await worker.close();
      await queue.close();
      let cursor = '0';
      do {
        const [next, keys] = await producer.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await producer.del(...keys);
      } while (cursor !== '0');
      producer.disconnect();
      workerConn.disconnect();
      await databases.close();
      await control.destroy();
      await dropPgDatabase(server, names.aplt);
      await dropPgDatabase(server, names.control);
      await rm(fileDir, { recursive: true, force: true });
    },
  };
}
