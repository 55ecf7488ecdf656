import { createTenantApp, type TenantServiceDeps } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { Config } from './config';
import type { GitRepositories } from './git/bot-repository';
import { internalRoutes } from './internal/internal.routes';
import { previewRewrite, previewRoutes } from './preview/preview.routes';
import { projectRoutes } from './projects/project.routes';
import type { PreviewStore } from './rebuild/previews';
import { previewStoreFromConfig } from './rebuild/rebuild.worker';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'> & {
  git: GitRepositories;
  queue: QueueClient;
  /** Default: DEVPROJECTS_PREVIEW_DIR of the configuration. */
  previews?: PreviewStore;
};

const SERVICE_VERSION = '1.0.0';

/** Builds the devprojects service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('devprojects', deps, config, {
    serviceToken: config.SERVICE_TOKEN,
    // Preview hosts (<code>.preview.<tenant host>) reach the preview route only.
    rewriteUrl: previewRewrite,
  });
  app.addReadinessCheck('git', () => deps.git.ensureRoot());
  const previews = deps.previews ?? previewStoreFromConfig(config);
  projectRoutes(app, {
    ...deps,
    previews,
    serviceVersion: SERVICE_VERSION,
    publicProxyUrl: config.PUBLIC_PROXY_URL,
  });
  previewRoutes(app, { ...deps, previews });
  internalRoutes(app, { ...deps, publicProxyUrl: config.PUBLIC_PROXY_URL });
  return app;
}
