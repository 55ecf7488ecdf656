import { createApp, pingPg, type TenantContext } from '@aplt/http';
import type { Config } from './config';

export type Deps = Pick<TenantContext, 'registry' | 'databases' | 'control'>;

/** Builds the logo modal service; it reads the master tenant's catalog. Never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'logo-modal',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
  });
  app.addReadinessCheck('control-db', () => pingPg(deps.control));
  return app;
}
