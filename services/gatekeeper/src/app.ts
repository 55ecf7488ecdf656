import { createTenantApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';
import { gatekeeperRoutes } from './gatekeeper.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the gatekeeper service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('gatekeeper', deps, config);
  gatekeeperRoutes(app, { databases: deps.databases, trustedProxies: config.TRUSTED_PROXIES });
  return app;
}
