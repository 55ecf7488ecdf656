import { pgAddressFromEnv } from '@aplt/config';
import { createPgDb } from '@aplt/db';
import { runService, tenantContextFromEnv } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const db = createPgDb({ ...pgAddressFromEnv(config), database: config.PG_DB });
const ctx = tenantContextFromEnv();
const app = await buildApp({ db, registry: ctx.registry }, config);
app.addHook('onClose', async () => {
  await ctx.close();
  await db.destroy();
});
await runService(app, { port: config.PORT, host: config.HOST });
