import { env, httpEnv, loadEnv, mysqlEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts.portal),
  ...httpEnv,
  ...mysqlEnv,
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
