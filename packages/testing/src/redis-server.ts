import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@aplt/proxy';
import { Redis } from 'ioredis';

export interface TestRedisServer {
  url: string;
  port: number;
  /** The server's working directory (its append-only file lives here). */
  dir: string;
  /** Stops the server with SIGTERM (Redis writes and fsyncs its AOF on the way out) and waits for it. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory, with the same arguments. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  cleanup(): Promise<void>;
}

/**
 * A redis-server owned by one test: its own free port and temporary directory, started with the
 * given arguments (e.g. `['--appendonly', 'no']`), restartable on the same port and data.
 */
export async function startTestRedisServer(args: string[] = []): Promise<TestRedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'aplt-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    output = '';
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<never>((_resolve, reject) =>
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`))),
    );
    exited.catch(() => {});
    const deadline = Date.now() + 15_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        const ready = await Promise.race([
          probe.connect().then(
            () =>
              probe.ping().then(
                () => true,
                () => false,
              ),
            () => false,
          ),
          exited,
        ]);
        if (ready) {
          // After a restart, the AOF must be loaded before the server counts as up.
          while (/loading:1/.test(await probe.info('persistence')))
            await new Promise((r) => setTimeout(r, 20));
          return;
        }
      } finally {
        probe.disconnect();
      }
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // Redis ignores a SIGTERM while it writes its first AOF ("Writing initial AOF, can't exit"),
    // e.g. right after CONFIG SET appendonly yes: ask again until it goes, and kill it after 15 s.
    proc.kill('SIGTERM');
    const started = Date.now();
    const again = setInterval(() => {
      proc.kill(Date.now() - started > 15_000 ? 'SIGKILL' : 'SIGTERM');
    }, 500);
    try {
      await gone;
    } finally {
      clearInterval(again);
    }
  };

  await start();
  return {
    url,
    port,
    dir,
    stop,
    start,
    async cleanup() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
