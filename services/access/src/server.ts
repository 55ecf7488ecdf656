import { pgAddressFromEnv } from '@aplt/config';
import { type AccessDatabase, createPgDb } from '@aplt/db';
import { runService, tenantContextFromEnv } from '@aplt/http';
import { Redis } from 'ioredis';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const db = createPgDb<AccessDatabase>({ ...pgAddressFromEnv(config), database: config.PG_DB });
const ctx = tenantContextFromEnv();
// License push and the cache invalidations between replicas (LICENSE_PUSH only gates the former).
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
redis.on('error', () => {});
const app = await buildApp({ db, registry: ctx.registry, redis }, config);
app.addHook('onClose', async () => {
  redis.disconnect();
  await ctx.close();
  await db.destroy();
});
await runService(app, { port: config.PORT, host: config.HOST });
