import { Redis } from 'ioredis';
import { queueSettings } from './settings';

/** What BullMQ needs from Redis so that no queued job is lost: on disk, and never evicted. */
export interface RedisDurability {
  appendonly: string;
  maxmemoryPolicy: string;
  /** One line per wrong setting, with the command that fixes it; empty when both are right. */
  problems: string[];
}

/** Reads both settings with CONFIG GET (throws when the server refuses CONFIG). */
export async function readRedisDurability(redis: Redis): Promise<RedisDurability> {
  const get = async (name: string) => {
    const reply = (await redis.call('CONFIG', 'GET', name)) as string[];
    return reply[1] ?? '';
  };
  const appendonly = await get('appendonly');
  const maxmemoryPolicy = await get('maxmemory-policy');
  const problems: string[] = [];
  if (appendonly !== 'yes') {
    problems.push(
      `appendonly is "${appendonly}": a Redis restart loses every queued job ` +
        '(run redis-server with --appendonly yes --appendfsync everysec, or CONFIG SET appendonly yes)',
    );
  }
  if (maxmemoryPolicy !== 'noeviction') {
    problems.push(
      `maxmemory-policy is "${maxmemoryPolicy}": Redis may evict queued jobs and their locks when memory is full ` +
        '(run redis-server with --maxmemory-policy noeviction, or CONFIG SET maxmemory-policy noeviction)',
    );
  }
  return { appendonly, maxmemoryPolicy, problems };
}

export class RedisNotDurableError extends Error {
  override readonly name = 'RedisNotDurableError';
}

const warned = new Set<string>();

/**
 * Start-up check of every service that queues or runs jobs: Redis must keep them (append-only
 * file) and never evict them (noeviction). `enforce` (default under NODE_ENV=production) throws
 * a {@link RedisNotDurableError} that names each wrong setting and its fix, so the service does
 * not start; `warn` (default otherwise) prints the same once per process and Redis address;
 * `off` skips the check. A Redis that refuses CONFIG GET fails `enforce` too: set
 * REDIS_DURABILITY_CHECK=off only where the operator vouches for those settings.
 */
export async function ensureDurableRedis(
  url: string,
  opts: {
    service: string;
    mode?: 'enforce' | 'warn' | 'off';
    warn?: (message: string) => void;
  },
): Promise<RedisDurability | undefined> {
  const mode = opts.mode ?? queueSettings().durabilityCheck;
  if (mode === 'off') return undefined;
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => {}); // the failed command carries the error
  let state: RedisDurability;
  try {
    await redis.connect();
    state = await readRedisDurability(redis);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const message = `${opts.service}: cannot check Redis at ${redacted(url)} for durable queues (${why})`;
    if (mode === 'enforce') throw new RedisNotDurableError(message, { cause: err });
    warnOnce(`${url}|unreadable`, message, opts.warn);
    return undefined;
  } finally {
    redis.disconnect();
  }
  if (state.problems.length === 0) return state;
  const lines = state.problems.map((p) => `  - ${p}`).join('\n');
  if (mode === 'enforce') {
    throw new RedisNotDurableError(
      `${opts.service} refuses to start: Redis at ${redacted(url)} would lose queued jobs:\n${lines}`,
    );
  }
  warnOnce(
    url,
    `WARNING: ${opts.service}: Redis at ${redacted(url)} would lose queued jobs ` +
      `(allowed outside production; NODE_ENV=production refuses to start):\n${lines}`,
    opts.warn,
  );
  return state;
}

function warnOnce(key: string, message: string, warn = (m: string) => console.error(m)) {
  if (warned.has(key)) return;
  warned.add(key);
  warn(message);
}

/** The address without its password, for messages. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}

/**
 * {@link ensureDurableRedis} for a service's entry point: a refusal ends the process with its
 * message on stderr (exit code 1) instead of a stack trace.
 */
export async function requireDurableRedis(url: string, service: string): Promise<void> {
  try {
    await ensureDurableRedis(url, { service });
  } catch (err) {
    if (!(err instanceof RedisNotDurableError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
