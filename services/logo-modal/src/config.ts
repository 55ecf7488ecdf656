import { env, httpEnv, loadEnv, redisEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts['logo-modal']),
  ...httpEnv,
  ...redisEnv,
  // Local directory of the file store (uploaded logos, screenshots, proofs).
  FILE_STORE_DIR: env.str('.run/files'),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
