import { createTenantApp, type TenantServiceDeps } from '@aplt/http';
import { createRedis, QueueClient, type Redis, type WorkerHandle } from '@aplt/queue';
import { aiProviderFromConfig, type AiProvider } from './ai/ai-provider';
import { aiRoutes } from './ai/ai.routes';
import type { Config } from './config';
import { connectorRoutes } from './connectors/connectors.routes';
import type { CatalogDeps } from './deps';
import { adminProductRoutes } from './products/admin-product.routes';
import { queueDashboard } from './queues/queue-dashboard';
import { announceWrites, storeChangedPublisher } from './store/store-cache-events';
import { storeRoutes } from './store/store.routes';
import { supplierRoutes } from './suppliers/supplier.routes';
import { syncRoutes } from './sync/sync.routes';
import { techniquePricingRoutes } from './techniques/technique-pricing.routes';
import { startCatalogWorkers } from './workers';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'> & {
  /** Tests pass a loopback provider; by default it follows AI_* config. */
  ai?: AiProvider;
};

/** Builds the catalog service; never listens (server.ts does). Workers run here only with CATALOG_RUN_WORKERS. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('catalog', deps, config);
  const redis: Redis = createRedis(config.REDIS_URL);
  const queues = new QueueClient(redis, config.REDIS_PREFIX);
  const catalogDeps: CatalogDeps = {
    registry: deps.registry,
    databases: deps.databases,
    queues,
    ai: deps.ai ?? aiProviderFromConfig(config),
    config,
  };
  app.decorate('catalogDeps', catalogDeps);
  app.addReadinessCheck('redis', async () => {
    await redis.ping();
  });

  const storeChanged = storeChangedPublisher(redis, config.REDIS_PREFIX, app.log);
  announceWrites(app, storeChanged);

  let workers: WorkerHandle[] = [];
  let workerRedis: Redis | undefined;
  if (config.CATALOG_RUN_WORKERS) {
    workerRedis = createRedis(config.REDIS_URL, { forWorker: true });
    workers = startCatalogWorkers({
      registry: deps.registry,
      databases: deps.databases,
      connection: workerRedis,
      config,
      storeChanged,
      log: (msg, extra) => app.log.info(extra ?? {}, msg),
    });
  }

  await app.register(storeRoutes);
  await app.register(connectorRoutes);
  await app.register(syncRoutes);
  await app.register(aiRoutes);
  await app.register(supplierRoutes);
  await app.register(techniquePricingRoutes);
  await app.register(adminProductRoutes);
  await queueDashboard(app, queues);

  app.addHook('onClose', async () => {
    await Promise.allSettled(workers.map((w) => w.close()));
    await queues.close();
    redis.disconnect();
    workerRedis?.disconnect();
  });
  return app;
}
