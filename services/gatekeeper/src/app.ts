import { createApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';
import { gatekeeperRoutes } from './gatekeeper.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the gatekeeper service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'gatekeeper',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
    assertionPublicKey: config.ACCESS_ASSERTION_PUBLIC_KEY,
  });
  gatekeeperRoutes(app, { databases: deps.databases, trustedProxies: config.TRUSTED_PROXIES });
  return app;
}
