import { tmpdir } from 'node:os';
import {
  assertionEnv,
  env,
  httpEnv,
  jwtEnv,
  loadEnv,
  redisEnv,
  ServicePorts,
  serviceTokenEnv,
} from '@aplt/config';
import { z } from 'zod';

export const configShape = {
  PORT: env.port(ServicePorts['devprojects']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  // The fleet's service token: the portal presents it on the internal create-from-ticket route.
  ...serviceTokenEnv,
  // Directory of the bare git repositories (<tenant>.git: main + dev-project/<code>), created if missing.
  DEVPROJECTS_GIT_DIR: env.str('.cache/devprojects'),
  // Author and committer of every commit the service makes: a bot, never a person's identity.
  DEVPROJECTS_BOT_NAME: env.str('APLT Dev Bot'),
  DEVPROJECTS_BOT_EMAIL: env.str('devbot@aplt.localhost'),
  // Public proxy address: scheme and port of the deep links to a tenant's admin panel.
  PUBLIC_PROXY_URL: env.str('http://127.0.0.1:8080'),
  // Run the 'rebuild' queue worker inside this process (off where a separate worker runs it).
  DEVPROJECTS_REBUILD_WORKER: env.bool(true),
  // Built previews: <dir>/<tenant>/<project code>/current -> releases/<deployment id> (README "Rebuild").
  DEVPROJECTS_PREVIEW_DIR: env.str('.cache/devprojects-previews'),
  // Where a rebuild checks out its fresh work tree (a temporary directory per build, removed after).
  DEVPROJECTS_BUILD_DIR: env.str(tmpdir()),
  // Time limit of one build command; the whole process group is killed when it is over.
  DEVPROJECTS_BUILD_TIMEOUT_SECONDS: env.int(300).pipe(z.number().min(1).max(3600)),
  // The deployment log keeps at most this much build output (the start and the end of it).
  DEVPROJECTS_BUILD_LOG_MAX_BYTES: env.int(256 * 1024).pipe(
    z
      .number()
      .min(1024)
      .max(16 * 1024 * 1024),
  ),
  // Largest built output kept as a preview (bytes, all files together) and most files.
  DEVPROJECTS_PREVIEW_MAX_BYTES: env.int(100 * 1024 * 1024).pipe(z.number().min(1)),
  DEVPROJECTS_PREVIEW_MAX_FILES: env.int(10_000).pipe(z.number().min(1)),
  // Builds run without network (unshare --net). Where that is impossible the build fails, unless
  // this is true: a development machine without namespaces, never production.
  DEVPROJECTS_BUILD_ALLOW_NETWORK: env.bool(false),
  // When the service runs as root, the build command runs as this uid:gid (nobody by default).
  DEVPROJECTS_BUILD_UID: env.int(65534).pipe(z.number().min(1)),
  DEVPROJECTS_BUILD_GID: env.int(65534).pipe(z.number().min(1)),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
