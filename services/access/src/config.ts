import { env, httpEnv, loadEnv, pgEnv, redisEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  // Spec 2: the access service listens internally on 3334.
  PORT: env.port(ServicePorts.access),
  ...httpEnv,
  ...pgEnv,
  ...redisEnv,
  // The access service's own database (users, sessions, device tokens, whitelist, licenses).
  PG_DB: env.str('access'),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
