import { createApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the password-sync service (worker health and run state); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'password-sync',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
  });
  return app;
}
