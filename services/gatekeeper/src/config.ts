import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, redisEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts['gatekeeper']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
