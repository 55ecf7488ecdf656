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
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
