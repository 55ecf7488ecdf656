import rateLimit from '@fastify/rate-limit';
import { type App, tooManyRequests } from '@aplt/http';
import type { Redis } from 'ioredis';
import type { Config } from '../config';

/**
 * Counters live in Redis, so every auth process shares them. The key is tenant host plus client
 * address: one tenant's traffic never locks out another's.
 */
export async function registerRateLimit(app: App, redis: Redis, prefix: string): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${prefix}:auth-rl:`,
    keyGenerator: (request) => `${request.hostname}|${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(
        `Too many attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
        Math.max(1, Math.ceil(context.ttl / 1000)),
      ),
  });
}

/** Route config for login-like routes (password, OTP, reset requests). */
export function loginRateLimit(config: Config) {
  return { rateLimit: { max: config.LOGIN_RATE_MAX, timeWindow: config.LOGIN_RATE_WINDOW_SECONDS * 1000 } };
}
