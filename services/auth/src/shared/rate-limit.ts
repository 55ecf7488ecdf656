import rateLimit from '@fastify/rate-limit';
import { type App, normaliseHost, tooManyRequests } from '@aplt/http';
import type { Redis } from 'ioredis';
import type { Config } from '../config';

/**
 * Counters live in Redis, so every auth process shares them; the Redis store counts and sets the
 * window in one Lua step, so concurrent requests cannot slip past a limit together. The key is
 * the normalised tenant host plus client address: one tenant's traffic never locks out
 * another's, and `STARK.LOCALHOST`, `Stark.localhost.` or a port suffix are the same host.
 */
export async function registerRateLimit(app: App, redis: Redis, prefix: string): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${prefix}:auth-rl:`,
    keyGenerator: (request) => `${normaliseHost(request.host)}|${request.ip}`,
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
