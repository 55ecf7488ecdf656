import { bootTenantService } from '@aplt/http';
import { createRedis, QueueClient, requireDurableRedis } from '@aplt/queue';
import { buildApp } from './app';
import { loadConfig } from './config';
import { gitRepositoriesFromConfig } from './git/bot-repository';
import {
  buildSettingsFromConfig,
  previewStoreFromConfig,
  startRebuildWorker,
} from './rebuild/rebuild.worker';

const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'devprojects');
const git = gitRepositoriesFromConfig(config);
const previews = previewStoreFromConfig(config);
await git.ensureRoot();
const redis = createRedis(config.REDIS_URL);
const queue = new QueueClient(redis, config.REDIS_PREFIX);

await bootTenantService({
  port: config.PORT,
  host: config.HOST,
  build: async (deps) => {
    const app = await buildApp({ ...deps, git, queue, previews }, config);
    const workerRedis = config.DEVPROJECTS_REBUILD_WORKER
      ? createRedis(config.REDIS_URL, { forWorker: true })
      : null;
    const worker = workerRedis
      ? startRebuildWorker(
          { ...deps, git, previews, build: buildSettingsFromConfig(config) },
          { connection: workerRedis, prefix: config.REDIS_PREFIX },
        )
      : null;
    // HTTP closes first (runService), then the worker, then the queue connections.
    app.addHook('onClose', async () => {
      await worker?.close();
      await queue.close();
      workerRedis?.disconnect();
      redis.disconnect();
    });
    return app;
  },
});
