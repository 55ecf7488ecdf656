import { runService, tenantContextFromEnv } from '@aplt/http';
import { createRedis, QueueClient } from '@aplt/queue';
import { buildApp } from './app';
import { startCallbackWorker } from './callbacks/callback.worker';
import { loadConfig } from './config';

const config = loadConfig();
const ctx = tenantContextFromEnv();
const redis = createRedis(config.REDIS_URL);
const workerRedis = createRedis(config.REDIS_URL, { forWorker: true });
const queue = new QueueClient(redis, config.REDIS_PREFIX);
const app = await buildApp({ ...ctx, queue }, config);
const worker = config.CALLBACK_WORKER
  ? startCallbackWorker({ ...ctx, connection: workerRedis, prefix: config.REDIS_PREFIX }, config, app.log)
  : undefined;
app.addReadinessCheck('redis', () => redis.ping());
const purge = () =>
  app.purgeStaleDrafts().then(
    (n) => n > 0 && app.log.info({ purged: n }, 'abandoned drafts cancelled'),
    (err: unknown) => app.log.warn({ err }, 'draft purge failed'),
  );
const purgeTimer = setInterval(() => void purge(), 3_600_000);
purgeTimer.unref();
void purge();
// onClose hooks run after HTTP has stopped: worker first, then queues and pools.
app.addHook('onClose', async () => {
  clearInterval(purgeTimer);
  await worker?.close();
  await queue.close();
  redis.disconnect();
  workerRedis.disconnect();
  await ctx.close();
});
await runService(app, { port: config.PORT, host: config.HOST });
