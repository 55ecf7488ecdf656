import { createApp, type TenantServiceDeps } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { Config } from './config';
import type { GitRepositories } from './git/bot-repository';
import { internalRoutes } from './internal/internal.routes';
import { projectRoutes } from './projects/project.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'> & {
  git: GitRepositories;
  queue: QueueClient;
};

const SERVICE_VERSION = '1.0.0';

/** Builds the devprojects service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'devprojects',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
    assertionPublicKey: config.ACCESS_ASSERTION_PUBLIC_KEY,
    serviceToken: config.SERVICE_TOKEN,
  });
  app.addReadinessCheck('git', () => deps.git.ensureRoot());
  projectRoutes(app, { ...deps, serviceVersion: SERVICE_VERSION });
  internalRoutes(app, { ...deps, publicProxyUrl: config.PUBLIC_PROXY_URL });
  return app;
}
