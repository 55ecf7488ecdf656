import { bootTenantService } from '@aplt/http';
import { createRedis, QueueClient, requireDurableRedis } from '@aplt/queue';
import { buildApp } from './app';
import { loadConfig } from './config';
import { scheduleQuotationExpiry, startDocumentsWorker } from './jobs/documents.worker';
import { startPartnerSync } from './partner/partner.runtime';
import { syncAllBillingSchedules } from './subscriptions/billing.scheduler';

const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'documents');
await bootTenantService({
  port: config.PORT,
  host: config.HOST,
  build: async (deps) => {
    // Producer connection: the billing settings route creates and removes job schedulers.
    const redis = createRedis(config.REDIS_URL);
    const queues = new QueueClient(redis, config.REDIS_PREFIX);
    const app = await buildApp({ ...deps, queues }, config);
    app.addReadinessCheck('redis', () => redis.ping());
    if (config.DOCUMENTS_WORKER) {
      const connection = createRedis(config.REDIS_URL, { forWorker: true });
      const worker = startDocumentsWorker(deps, { connection, prefix: config.REDIS_PREFIX, log: app.log });
      await scheduleQuotationExpiry(queues);
      await syncAllBillingSchedules(queues, deps, app.log);
      // HTTP closes first (runService), then the worker and its connection.
      app.addHook('onClose', async () => {
        await worker.close();
        connection.disconnect();
      });
    }
    app.addHook('onClose', async () => {
      await queues.close();
      redis.disconnect();
    });
    // Partner fulfilment: its own worker, scheduler and connections (issue #16).
    await startPartnerSync(app, deps, config);
    return app;
  },
});
