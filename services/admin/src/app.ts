import { createApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';
import { featuresRoutes } from './features/features.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the admin service (panel shell and feature endpoints); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'admin',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
    assertionPublicKey: config.ACCESS_ASSERTION_PUBLIC_KEY,
  });

  // The tenant backend's root: which tenant this host is, so a person (or a test) can see it.
  app.get('/', async (request) => ({
    service: 'admin',
    tenant: { id: request.tenant.id, kind: request.tenant.kind, name: request.tenant.name },
  }));
  await featuresRoutes(app);
  return app;
}
