import { runService, tenantContextFromEnv } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const ctx = tenantContextFromEnv();
const app = await buildApp(ctx, config);
app.addHook('onClose', () => ctx.close());
await runService(app, { port: config.PORT, host: config.HOST });
