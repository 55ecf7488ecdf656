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
  /** Quiet intervals in a row after a busy one before the collection runs. */
  quietIntervals?: number;
  /** Injected for tests: this process's CPU time in microseconds, and the collection. */
  cpuMicros?: () => number;
  collect?: (() => void) | null;
}

/**
 * Gives memory back once the process has gone quiet. V8 keeps its heap and its young generation
 * (up to 2 x 16 MB) at the size start-up or the last burst of traffic grew them to; without the
 * browser's idle notifications its memory reducer rarely runs in Node, so a compiled service at
 * rest held 120-170 MB RSS, of which one full collection returns 30-60 MB within half a second.
 *
 * A timer samples the process's CPU time (no per-request cost). After a busy interval, once
 * `quietIntervals` quiet ones have followed, it runs one full collection (10-40 ms on these heaps,
 * on a process nobody is waiting for) and then waits for the next busy interval; under steady
 * load it never runs. The collection's own CPU time is not counted as activity. Returns a stop
 * function; the timer does not keep the process alive.
 */
export function collectWhenIdle(opts: IdleCollectorOptions = {}): () => void {
  const collect = opts.collect === undefined ? fullCollection() : opts.collect;
  if (!collect) return () => {};
  const intervalMs = opts.intervalMs ?? 5_000;
  const quietMicros = (opts.quietCpuMs ?? 0.02 * intervalMs) * 1_000;
  const quietNeeded = opts.quietIntervals ?? 2;
  const cpuMicros =
    opts.cpuMicros ??
    (() => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    });
  // Start-up is the first busy period: its garbage is the largest.
  let armed = true;
  let quiet = 0;
  let last = cpuMicros();
  const timer = setInterval(() => {
    const now = cpuMicros();
    const used = now - last;
    last = now;
    if (used >= quietMicros) {
      armed = true;
      quiet = 0;
      return;
    }
    if (!armed || ++quiet < quietNeeded) return;
    collect();
    armed = false;
    quiet = 0;
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
export function collectWhenIdleFromEnv(source: Record<string, string | undefined> = process.env): () => void {
  const { IDLE_COLLECT_INTERVAL_MS } = loadEnv(idleMemoryEnv, source);
  return IDLE_COLLECT_INTERVAL_MS > 0 ? collectWhenIdle({ intervalMs: IDLE_COLLECT_INTERVAL_MS }) : () => {};
}
