import { createLicenseClientFromEnv } from '@aplt/licensing';
import { pingPg, runService, tenantContextFromEnv } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig, syncDbServer } from './config';
import { startPasswordSyncWorker } from './worker';
import { requireDurableRedis } from '@aplt/queue';

const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'password-sync');
// Tenant commerce DBs default to the SYNC_DB_* server (the spec's env) where the registry names none.
const ctx = tenantContextFromEnv({ commerce: syncDbServer(config) });
const licenses = createLicenseClientFromEnv();
await licenses.start((await ctx.registry.list()).map((t) => t.id));
const app = await buildApp({ ...ctx, licenses }, config);
app.addReadinessCheck('control-db', () => pingPg(ctx.control));
const worker = config.PASSWORD_SYNC_WORKER
  ? startPasswordSyncWorker({
      registry: ctx.registry,
      databases: ctx.databases,
      redisUrl: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      runTtlSeconds: config.PASSWORD_SYNC_RUN_TTL_DAYS * 86_400,
      concurrency: config.PASSWORD_SYNC_CONCURRENCY,
      log: app.log,
    })
  : undefined;
// Shutdown order: HTTP first (runService), then the worker, then pools.
app.addHook('onClose', async () => {
  await worker?.close();
  await licenses.close();
  await ctx.close();
});
await runService(app, { port: config.PORT, host: config.HOST });
