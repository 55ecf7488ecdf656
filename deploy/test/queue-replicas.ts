import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One job event a worker replica reported (see queue-worker-host.ts). */
export interface JobEvent {
  event: 'active' | 'completed' | 'failed';
  queue: string;
  id: string;
  pid: number;
  attempts: number;
  reason?: string;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A worker replica of the queue tests: a real process running queue-worker-host.ts, whose job
 * events are collected here (all replicas of a test share one `events` list and its waiters).
 */
export class WorkerReplicas {
  readonly events: JobEvent[] = [];
  private readonly running = new Set<ChildProcess>();
  private waiters: Array<() => void> = [];
  private logs = '';

  constructor(private readonly env: Record<string, string>) {}

  /** Starts one replica and resolves once its workers are connected. */
  async start(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/test/queue-worker-host.ts'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.running.add(child);
    child.once('exit', () => this.running.delete(child));
    let buffered = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) =>
        reject(new Error(`worker replica exited (${code ?? signal}) before it was ready:\n${this.logs}`)),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          let parsed: JobEvent | { event: 'ready' };
          try {
            parsed = JSON.parse(line) as JobEvent | { event: 'ready' };
          } catch {
            this.logs += `${line}\n`;
            continue;
          }
          if (parsed.event === 'ready') resolve();
          else {
            this.events.push(parsed);
            for (const w of this.waiters.splice(0)) w();
          }
        }
      });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.logs = (this.logs + chunk.toString()).slice(-20_000);
    });
    await ready;
    return child;
  }

  /** Stops every replica with SIGTERM (running jobs finish) and waits for each to exit. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.running].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            // A replica that cannot drain (its Redis gone) is killed rather than left behind.
            const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }

  /** Resolves when `done()` holds, re-checked after each event; fails past the deadline with `what()`. */
  async until(done: () => boolean, what: () => string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what()} after ${timeoutMs} ms\n--- replica output ---\n${this.logs}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Events of one job id in one queue, by kind. */
  count(queue: string, id: string, event: JobEvent['event']): number {
    return this.events.filter((e) => e.queue === queue && e.id === id && e.event === event).length;
  }
}
