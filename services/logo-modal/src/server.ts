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
// onClose hooks run after HTTP has stopped: worker first, then queues and pools.
app.addHook('onClose', async () => {
  await worker?.close();
  await queue.close();
  redis.disconnect();
  workerRedis.disconnect();
  await ctx.close();
});
await runService(app, { port: config.PORT, host: config.HOST });
