import { runService, tenantContextFromEnv } from '@aplt/http';
import { createRedis, QueueClient, requireDurableRedis } from '@aplt/queue';
import { buildApp } from './app';
import { startCallbackWorker } from './callbacks/callback.worker';
import { loadConfig } from './config';
import { scheduleDraftPurge, startDraftPurgeWorker } from './transactions/draft-purge.worker';

const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'logo-modal');
const ctx = tenantContextFromEnv();
const redis = createRedis(config.REDIS_URL);
const workerRedis = createRedis(config.REDIS_URL, { forWorker: true });
const queue = new QueueClient(redis, config.REDIS_PREFIX);
const app = await buildApp({ ...ctx, queue, redis }, config);
const worker = config.CALLBACK_WORKER
  ? startCallbackWorker({ ...ctx, connection: workerRedis, prefix: config.REDIS_PREFIX }, config, app.log)
  : undefined;
app.addReadinessCheck('redis', () => redis.ping());
// Abandoned drafts: one job scheduler in Redis (hourly), handled by whichever worker takes it.
const purgeWorker = config.CALLBACK_WORKER
  ? startDraftPurgeWorker(() => app.purgeStaleDrafts(), {
      connection: workerRedis,
      prefix: config.REDIS_PREFIX,
      log: app.log,
    })
  : undefined;
await scheduleDraftPurge(queue);
// onClose hooks run after HTTP has stopped: workers first, then queues and pools.
app.addHook('onClose', async () => {
  await purgeWorker?.close();
  await worker?.close();
  await queue.close();
  redis.disconnect();
  workerRedis.disconnect();
  await ctx.close();
});
await runService(app, { port: config.PORT, host: config.HOST });
