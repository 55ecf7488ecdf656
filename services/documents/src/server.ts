import { bootTenantService } from '@aplt/http';
import { createRedis, QueueClient } from '@aplt/queue';
import { buildApp } from './app';
import { loadConfig } from './config';
import { scheduleQuotationExpiry, startDocumentsWorker } from './jobs/documents.worker';

const config = loadConfig();
await bootTenantService({
  port: config.PORT,
  host: config.HOST,
  build: async (deps) => {
    const app = await buildApp(deps, config);
    if (config.DOCUMENTS_WORKER) {
      const connection = createRedis(config.REDIS_URL, { forWorker: true });
      const queues = new QueueClient(connection, config.REDIS_PREFIX);
      const worker = startDocumentsWorker(deps, { connection, prefix: config.REDIS_PREFIX });
      await scheduleQuotationExpiry(queues);
      // HTTP closes first (runService), then the worker and its connection.
      app.addHook('onClose', async () => {
        await worker.close();
        await queues.close();
        connection.disconnect();
      });
    }
    return app;
  },
});
