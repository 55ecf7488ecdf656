import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, pgEnv, redisEnv, ServicePorts } from '@aplt/config';
import { queueCatalog } from '@aplt/queue';
import { z } from 'zod';

/** Seconds one job may run, defaulting to the queue catalog's timeout (at most 24 days: setTimeout's range). */
const timeLimitSeconds = (queue: keyof typeof queueCatalog) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 24 * 3600)
    .default(queueCatalog[queue].timeoutMs / 1000);

export const configShape = {
  PORT: env.port(ServicePorts['catalog']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  ...pgEnv,
  // Run the queue workers inside the HTTP process (single-process dev); the fleet runs src/worker.ts.
  CATALOG_RUN_WORKERS: env.bool(false),
  // Rows per upsert batch: bounds memory per batch and statement size (params < 65535).
  CATALOG_BATCH_SIZE: env.int(1000),
  // Default retail margin over the supplier purchase price when a supplier sets none (percent).
  CATALOG_DEFAULT_MARGIN_PERCENT: env.decimal('40'),
  // Time limits per queue (seconds): a run past its limit is stopped, its transaction rolled back,
  // its run row failed ("time limit of N s exceeded") and the connector free to run again.
  CATALOG_CONNECTOR_TIME_LIMIT_SECONDS: timeLimitSeconds('connectors'),
  CATALOG_COMMERCE_SYNC_TIME_LIMIT_SECONDS: timeLimitSeconds('commerce-sync'),
  CATALOG_TENANT_UPDATE_TIME_LIMIT_SECONDS: timeLimitSeconds('tenant-update'),
  // Seconds a public catalog page (products, categories) is answered from memory; 0 = never.
  CATALOG_STORE_CACHE_SECONDS: env.int(10),
  // OpenAI-compatible chat-completions endpoint; unset = the built-in deterministic engine.
  AI_BASE_URL: env.optionalStr(),
  // Bearer key for AI_BASE_URL.
  AI_API_KEY: env.optionalStr(),
  // Model name sent to AI_BASE_URL.
  AI_MODEL: env.optionalStr(),
  // Upper bound for one LLM call; the built-in engine answers when it is exceeded.
  AI_TIMEOUT_MS: env.int(20_000),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
