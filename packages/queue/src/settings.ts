import { env, loadEnv } from '@aplt/config';
import { z } from 'zod';

/**
 * How workers notice a job whose worker died (SIGKILL, lost host): BullMQ's stalled-job check.
 * A running job holds a lock that its worker renews; when the lock is older than
 * QUEUE_LOCK_DURATION_MS, the next stalled check (every QUEUE_STALLED_INTERVAL_MS, on any
 * worker of the queue) moves the job back to waiting, and another worker runs it again. So a
 * killed worker's job resumes within about lock duration + two check intervals. Shorter values
 * resume sooner but renew locks more often and risk taking a job from a worker that is only
 * blocked (a long synchronous step): the lock is renewed from the event loop.
 */
const intIn = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const queueEnv = {
  // How long a job's lock lives without renewal (renewed every half of it); BullMQ's default.
  QUEUE_LOCK_DURATION_MS: intIn(30_000, 1_000, 600_000),
  // How often each worker looks for jobs whose lock expired; BullMQ's default.
  QUEUE_STALLED_INTERVAL_MS: intIn(30_000, 500, 600_000),
  // How often one job may stall (its worker died) before it fails instead of running again.
  QUEUE_MAX_STALLED_COUNT: intIn(1, 0, 100),
  // Refuse to start (enforce), warn (warn) or stay silent (off) when Redis would lose or evict
  // queued jobs (appendonly no, an evicting maxmemory-policy). Default: enforce when NODE_ENV is
  // production, warn otherwise. "off" is for a managed Redis that refuses CONFIG GET.
  REDIS_DURABILITY_CHECK: env.oneOf(['enforce', 'warn', 'off', 'auto'], 'auto'),
};

export type QueueSettings = {
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  durabilityCheck: 'enforce' | 'warn' | 'off';
};

/** Parses the queue variables (a bad value throws, naming the variable). */
export function loadQueueSettings(source: Record<string, string | undefined> = process.env): QueueSettings {
  const e = loadEnv(queueEnv, source);
  return {
    lockDurationMs: e.QUEUE_LOCK_DURATION_MS,
    stalledIntervalMs: e.QUEUE_STALLED_INTERVAL_MS,
    maxStalledCount: e.QUEUE_MAX_STALLED_COUNT,
    durabilityCheck:
      e.REDIS_DURABILITY_CHECK === 'auto'
        ? source['NODE_ENV'] === 'production'
          ? 'enforce'
          : 'warn'
        : e.REDIS_DURABILITY_CHECK,
  };
}

let cached: QueueSettings | undefined;

/** The process's settings, read from its environment once (at the first worker's start). */
export function queueSettings(): QueueSettings {
  return (cached ??= loadQueueSettings());
}
