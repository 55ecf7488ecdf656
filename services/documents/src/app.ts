import { createApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the documents service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'documents',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
  });
  return app;
}
