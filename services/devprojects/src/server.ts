import { bootTenantService } from '@aplt/http';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
await bootTenantService({ port: config.PORT, host: config.HOST, build: (deps) => buildApp(deps, config) });
