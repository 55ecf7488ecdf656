import type { ChildProcess } from 'node:child_process';

export interface BackoffPolicy {
  /** Wait before the first restart after a crash. */
  initialMs: number;
  /** The wait doubles with each crash in a row, up to this. */
  maxMs: number;
  /** A process that ran this long before it crashed starts the doubling over. */
  stableMs: number;
}

export const defaultBackoff: BackoffPolicy = { initialMs: 500, maxMs: 30_000, stableMs: 60_000 };

/** The wait before restarting a process that crashed after running `uptimeMs`, given the last wait. */
export function nextBackoff(previousMs: number | undefined, uptimeMs: number, policy: BackoffPolicy): number {
  if (previousMs === undefined || uptimeMs >= policy.stableMs) return policy.initialMs;
  return Math.min(previousMs * 2, policy.maxMs);
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) => signal ?? `code ${code ?? '?'}`;

/**
 * One process of the fleet, kept running: a crash is logged and followed by a restart after a
 * backoff (0.5 s doubling to 30 s, back to 0.5 s after a stable minute), while every other
 * process keeps serving. restart() is a planned one (SIGTERM, drain, start again at once);
 * stop() ends it for good.
 */
export class Supervised {
  child: ChildProcess;
  restarts = 0;
  private startedAt = Date.now();
  private lastBackoffMs: number | undefined;
  private supervising = false;
  private stopping = false;
  private planned: (() => void) | undefined;
  private pendingTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    private readonly opts: {
      /** Starts the process (again). */
      spawn: () => ChildProcess;
      /** Resolves when the process serves (HTTP: /healthz); rejects if it exits first or never does. */
      ready: (child: ChildProcess) => Promise<void>;
      log: (line: string) => void;
      backoff?: BackoffPolicy;
    },
  ) {
    this.child = this.launch();
  }

  /** Until this is called (the fleet is up), an exit is a failed start, not restarted. */
  supervise(): void {
    this.supervising = true;
  }

  ready(): Promise<void> {
    return this.opts.ready(this.child);
  }

  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /** Resolves the next time the process is (back) up and ready. */
  private nextReady(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  private launch(): ChildProcess {
    const child = this.opts.spawn();
    this.child = child;
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    return child;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || !this.supervising || child !== this.child) return;
    if (this.planned) {
      const done = this.planned;
      this.planned = undefined;
      this.opts.log(`${this.name} stopped (${describeExit(code, signal)}) for a restart; starting it again`);
      this.relaunch();
      void this.nextReady().then(done);
      return;
    }
    const uptime = Date.now() - this.startedAt;
    const wait = nextBackoff(this.lastBackoffMs, uptime, this.opts.backoff ?? defaultBackoff);
    this.lastBackoffMs = wait;
    this.opts.log(
      `${this.name} exited (${describeExit(code, signal)}) after ${(uptime / 1000).toFixed(1)} s; restart #${this.restarts + 1} in ${(wait / 1000).toFixed(1)} s`,
    );
    this.pendingTimer = setTimeout(() => {
      this.pendingTimer = undefined;
      if (!this.stopping) this.relaunch();
    }, wait);
  }

  private relaunch(): void {
    this.restarts++;
    let child: ChildProcess;
    try {
      child = this.launch();
    } catch (err) {
      this.opts.log(`${this.name} could not be started: ${(err as Error).message}`);
      return;
    }
    this.opts.ready(child).then(
      () => {
        if (child !== this.child) return;
        this.opts.log(`${this.name} is back (pid ${child.pid}, restart #${this.restarts})`);
        for (const w of this.waiters) w();
        this.waiters.clear();
      },
      (err: unknown) => {
        if (this.stopping || child !== this.child || child.exitCode !== null || child.signalCode !== null)
          return; // its exit is handled (and logged) above
        this.opts.log(`${this.name} did not become ready (${(err as Error).message}); killing it`);
        child.kill('SIGKILL');
      },
    );
  }

  /**
   * A planned restart: SIGTERM (the process drains), started again at once, resolves when it is
   * ready. Used one replica at a time for a rolling restart.
   */
  restart(): Promise<void> {
    if (this.stopping) return Promise.reject(new Error(`${this.name} is stopping`));
    return new Promise<void>((resolve) => {
      if (this.pid === undefined) {
        // Down already (waiting out a backoff): start it now.
        if (this.pendingTimer) clearTimeout(this.pendingTimer);
        this.pendingTimer = undefined;
        this.relaunch();
        void this.nextReady().then(resolve);
        return;
      }
      this.planned = resolve;
      this.child.kill('SIGTERM');
    });
  }

  /** Stops the process for good: SIGTERM, SIGKILL after `killAfterMs`. */
  stop(killAfterMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    const child = this.child;
    return new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
