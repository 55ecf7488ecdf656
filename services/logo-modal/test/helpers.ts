import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedis, QueueClient } from '@aplt/queue';
import { createTestFleet, createTestRedis, type TestFleet, type TestRedis, testSecrets } from '@aplt/testing';
import { buildApp } from '../src/app';
import { startCallbackWorker } from '../src/callbacks/callback.worker';
import { type Config, loadConfig } from '../src/config';
import { upsertDemoCatalog } from '../src/demo/demo-catalog';

/**
 * The test's callback receiver listens on this machine: the explicit allowance of loopback that
 * local development uses too (CALLBACK_ALLOWED_NETWORKS, empty in production).
 */
export const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128';

/** A logo with text, so a PDF that kept it vector has the text extractable. */
export const vectorLogo = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
<rect x="2" y="2" width="196" height="96" rx="12" fill="#0A7F3F"/>
<circle cx="40" cy="50" r="28" fill="#FFD400"/>
<text x="76" y="58" font-family="sans-serif" font-size="16" fill="#FFFFFF">VECTORLOGO</text>
</svg>`;

export interface ModalHarness {
  fleet: TestFleet;
  redis: TestRedis;
  config: Config;
  app: Awaited<ReturnType<typeof buildApp>>;
  queue: QueueClient;
  fileDir: string;
  close(): Promise<void>;
}

/**
 * A master tenant with its own aplt DB holding the demo products, a private Redis prefix, a
 * private file store directory and the app plus the callback worker, as server.ts wires them.
 */
export async function startHarness(
  env: Record<string, string> = {},
  workerEnv: Record<string, string> = {},
): Promise<ModalHarness> {
  const fleet = await createTestFleet([{ id: 'master', kind: 'master' }]);
  const redis = await createTestRedis();
  const fileDir = await mkdtemp(join(tmpdir(), 'logo-modal-files-'));
  const master = (await fleet.registry.list())[0];
  if (!master) throw new Error('no master');
  await upsertDemoCatalog(fleet.databases.aplt(master));
  const baseEnv = {
    LOG_LEVEL: 'silent',
    FILE_STORE_DIR: fileDir,
    CALLBACK_DEFAULT_SECRET: testSecrets().CALLBACK_DEFAULT_SECRET,
    CALLBACK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
    REDIS_PREFIX: redis.prefix,
  };
  const config = loadConfig({ ...baseEnv, ...env });
  const producer = createRedis(redis.url);
  const workerConn = createRedis(redis.url, { forWorker: true });
  const queue = new QueueClient(producer, redis.prefix);
  const app = await buildApp(
    {
      registry: fleet.registry,
      databases: fleet.databases,
      control: fleet.control.db,
      queue,
      redis: producer,
    },
    config,
  );
  const worker = startCallbackWorker(
    { registry: fleet.registry, databases: fleet.databases, connection: workerConn, prefix: redis.prefix },
    loadConfig({ ...baseEnv, ...env, ...workerEnv }),
    { warn: () => {} },
  );
  return {
    fleet,
    redis,
    config,
    app,
    queue,
    fileDir,
    async close() {
      await app.close();
      await worker.close();
      await queue.close();
      producer.disconnect();
      workerConn.disconnect();
      await redis.cleanup();
      await fleet.cleanup();
      await rm(fileDir, { recursive: true, force: true });
    },
  };
}

/** multipart/form-data body with one file field, as a browser sends it. */
export function multipart(filename: string, contentType: string, data: Buffer | string) {
  const boundary = `----logo${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
