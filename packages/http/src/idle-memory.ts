import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { env, loadEnv } from '@aplt/config';

/**
 * V8's full collection, without starting Node with `--expose-gc`: the flag set at run time applies
 * to contexts made afterwards, so a fresh context hands out the function. Null where the runtime
 * refuses (the collector then does nothing).
 */
export function fullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

export interface IdleCollectorOptions {
  /** How often the process's CPU time is sampled. */
  intervalMs?: number;
  /** CPU time per interval (user + system) below which the interval counts as quiet. */
  quietCpuMs?: number;
  /** Growth of the resident set since the last collection that makes a quiet interval collect. */
  growthMb?: number;
  /** Called after each collection with the resident set before it, in MB (for a log line). */
  onCollect?: (rssMb: number) => void;
  /** Injected for tests: CPU time in microseconds, resident set in bytes, and the collection. */
  cpuMicros?: () => number;
  rssBytes?: () => number;
  collect?: (() => void) | null;
}

/**
 * Gives memory back once the process has gone quiet. V8 keeps its heap and its young generation
 * (up to 2 x 16 MB) at the size start-up or the last burst of traffic grew them to; without the
 * browser's idle notifications its memory reducer rarely runs in Node, so a compiled service at
 * rest held 110-165 MB RSS, of which one full collection returns 20-40 MB within half a second.
 *
 * A timer samples the process's CPU time and resident set (no per-request cost). The first quiet
 * interval after a busy one runs one full collection (10-40 ms on these heaps, on a process nobody
 * is waiting for), and so does a quiet interval in which the resident set has grown by `growthMb`
 * since it settled after the last collection (a burst between two samples). Under steady load no
 * interval is quiet and it never runs; a process that stays quiet is collected once; traffic in
 * bursts is collected at most every second interval. The collection's own CPU time is not counted
 * as activity. Returns a stop function; the timer does not keep the process alive.
 */
export function collectWhenIdle(opts: IdleCollectorOptions = {}): () => void {
  const collect = opts.collect === undefined ? fullCollection() : opts.collect;
  if (!collect) return () => {};
  const intervalMs = opts.intervalMs ?? 5_000;
  const quietMicros = (opts.quietCpuMs ?? 0.02 * intervalMs) * 1_000;
  const growth = (opts.growthMb ?? 8) * 1024 * 1024;
  const cpuMicros =
    opts.cpuMicros ??
    (() => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    });
  const rssBytes = opts.rssBytes ?? (() => process.memoryUsage.rss());
  // Start-up is the first busy period: the first quiet interval collects its garbage.
  let busySince = true;
  let reference: number | null = null;
  let last = cpuMicros();
  const timer = setInterval(() => {
    const now = cpuMicros();
    const quiet = now - last < quietMicros;
    last = now;
    if (!quiet) {
      busySince = true;
      return;
    }
    const rss = rssBytes();
    const grown = reference !== null && rss - reference >= growth;
    if (!busySince && !grown) {
      // The first quiet interval after a collection: the memory has been handed back by now.
      reference ??= rss;
      return;
    }
    collect();
    opts.onCollect?.(rss / 1024 / 1024);
    busySince = false;
    reference = null;
    last = cpuMicros();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export const idleMemoryEnv = {
  // How often a process checks whether it has gone quiet, to give start-up's and the last burst's
  // memory back; 0 turns that off.
  IDLE_COLLECT_INTERVAL_MS: env.int(5_000),
};

/** collectWhenIdle as the environment configures it (every HTTP service and the catalog worker). */
export function collectWhenIdleFromEnv(
  source: Record<string, string | undefined> = process.env,
  onCollect?: (rssMb: number) => void,
): () => void {
  const { IDLE_COLLECT_INTERVAL_MS } = loadEnv(idleMemoryEnv, source);
  return IDLE_COLLECT_INTERVAL_MS > 0
    ? collectWhenIdle({ intervalMs: IDLE_COLLECT_INTERVAL_MS, ...(onCollect ? { onCollect } : {}) })
    : () => {};
}
