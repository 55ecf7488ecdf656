import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, redisEnv, ServicePorts } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts['documents']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  // B2B franco limit (spec 1, limits): orders strictly above it ship free; an aplt_settings row wins.
  APLT_FRANCO_LIMIT: env.decimal('750.00'),
  // Shipping below the franco limit when no per-box cost is configured; an aplt_settings row wins.
  APLT_SHIPPING_COST_DEFAULT: env.decimal('12.99'),
  // Quotation validity when a quotation does not name its own valid_until (spec 1: 30 days).
  QUOTATION_VALIDITY_DAYS: env.int(30),
  // Run the quotations.expire worker in this process (off for tools that only serve HTTP).
  DOCUMENTS_WORKER: env.bool(true),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);
