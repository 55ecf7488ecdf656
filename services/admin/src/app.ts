import { createTenantApp, type TenantServiceDeps } from '@aplt/http';
import type { Config } from './config';
import { FeatureWatch } from './features/feature-watch';
import { featuresRoutes } from './features/features.routes';
import { meRoutes } from './users/me.routes';
import { defaultWebDist, webAppRoutes } from './web/web-app.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the admin service (the panel at /app and the feature endpoints); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('admin', deps, config);

  // The tenant backend's root: which tenant this host is, so a person (or a test) can see it.
  app.get('/', async (request) => ({
    service: 'admin',
    tenant: { id: request.tenant.id, kind: request.tenant.kind, name: request.tenant.name },
  }));
  await featuresRoutes(app, { watch: new FeatureWatch(deps.licenses, config.FEATURE_EVENTS_CHECK_MS) });
  await meRoutes(app, deps);
  await webAppRoutes(app, { distDir: config.ADMIN_WEB_DIST ?? defaultWebDist });
  return app;
}
