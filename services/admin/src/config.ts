import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, redisEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts['admin']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  // Where the built admin panel lives (`pnpm --filter @aplt/admin-web build`); default: web/dist
  // beside this service's sources.
  ADMIN_WEB_DIST: env.optionalStr(),
  // How often the feature-events stream compares the license client's in-memory feature set with
  // what it last sent (no network: the license client itself is kept fresh by push and polling).
  FEATURE_EVENTS_CHECK_MS: env.int(1000),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
