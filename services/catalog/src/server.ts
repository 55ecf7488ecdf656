import { bootTenantService } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { requireDurableRedis } from '@aplt/queue';

const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'catalog');
await bootTenantService({ port: config.PORT, host: config.HOST, build: (deps) => buildApp(deps, config) });
