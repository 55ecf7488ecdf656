import { resolve } from 'node:path';
import { type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { Config } from '../config';
import type { BuildSettings } from './builder';
import { PreviewStore } from './previews';
import { type RebuildDeps, runRebuild } from './rebuild.service';

/** The one handler of the 'rebuild' queue. Rebuilds run one at a time: they share the build host. */
export function startRebuildWorker(
  deps: RebuildDeps,
  opts: { connection: Redis; prefix: string },
): WorkerHandle {
  return startWorker(
    'rebuild',
    { 'rebuild.tenant': (payload) => runRebuild(deps, payload) },
    { ...opts, concurrency: 1 },
  );
}

/** The build settings of the service's configuration. */
export function buildSettingsFromConfig(config: Config): BuildSettings {
  return {
    buildRoot: resolve(config.DEVPROJECTS_BUILD_DIR),
    timeoutMs: config.DEVPROJECTS_BUILD_TIMEOUT_SECONDS * 1000,
    logMaxBytes: config.DEVPROJECTS_BUILD_LOG_MAX_BYTES,
    allowNetwork: config.DEVPROJECTS_BUILD_ALLOW_NETWORK,
    uid: config.DEVPROJECTS_BUILD_UID,
    gid: config.DEVPROJECTS_BUILD_GID,
    maxOutputBytes: config.DEVPROJECTS_PREVIEW_MAX_BYTES,
    maxOutputFiles: config.DEVPROJECTS_PREVIEW_MAX_FILES,
  };
}

export function previewStoreFromConfig(config: Config): PreviewStore {
  return new PreviewStore(resolve(config.DEVPROJECTS_PREVIEW_DIR));
}
