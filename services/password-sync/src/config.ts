import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, pgEnv, redisEnv, ServicePorts } from '@aplt/config';
import type { PgServer } from '@aplt/db';

export const configShape = {
  PORT: env.port(ServicePorts['password-sync']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  ...pgEnv,
  // Server of the tenant commerce DBs when the registry row names none (spec env; default PG_HOST).
  SYNC_DB_HOST: env.optionalStr(),
  SYNC_DB_PORT: env.port(5432),
  SYNC_DB_USER: env.str('postgres'),
  SYNC_DB_PASSWORD: env.optionalStr(),
  // Jobs handled at once: one run fans out in parallel itself; retries of single tenants run beside it.
  PASSWORD_SYNC_CONCURRENCY: env.int(4),
  // Run state stays visible this long after the run started.
  PASSWORD_SYNC_RUN_TTL_DAYS: env.int(30),
  // false: serve the run-state endpoint only (a separate worker process does the syncing).
  PASSWORD_SYNC_WORKER: env.bool(true),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);

/** Where tenant commerce DBs live by default: SYNC_DB_*, the host falling back to PG_HOST. */
export function syncDbServer(config: Config): PgServer {
  return {
    host: config.SYNC_DB_HOST ?? config.PG_HOST,
    port: config.SYNC_DB_PORT,
    user: config.SYNC_DB_USER,
    password: config.SYNC_DB_PASSWORD ?? config.PG_PASS,
  };
}
