import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedis, QueueClient, type Redis } from '@aplt/queue';
import { httpRequest, testServers, uniqueName } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineSplitter } from '../fleet/run-fleet';

const script = fileURLToPath(new URL('./drain-service.ts', import.meta.url));

interface Service {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  /** Resolves with the first line (stdout or stderr, past or future) that passes the test. */
  line(test: (line: string) => boolean): Promise<string>;
  release(what: 'request' | 'job'): void;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const seen: string[] = [];
  const waiting: Array<{ test: (l: string) => boolean; resolve: (l: string) => void }> = [];
  const onLine = (l: string) => {
    seen.push(l);
    for (const w of [...waiting])
      if (w.test(l)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(l);
      }
  };
  child.stdout.on('data', lineSplitter(onLine));
  child.stderr.on('data', lineSplitter(onLine));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = (test: (l: string) => boolean) => {
    const found = seen.find(test);
    if (found) return Promise.resolve(found);
    return Promise.race([
      new Promise<string>((resolve) => waiting.push({ test, resolve })),
      exited.then((code) => {
        throw new Error(`exited (${code}) before the line; output:\n${seen.join('\n')}`);
      }),
    ]);
  };
  const listening = await line((l) => l.startsWith('listening '));
  return {
    child,
    port: Number(listening.split(' ')[1]),
    exited,
    line,
    release: (what) => child.stdin.write(`release-${what}\n`),
  };
}

const logged = (msg: string) => (l: string) => {
  try {
    return (JSON.parse(l) as { msg?: string }).msg === msg;
  } catch {
    return false;
  }
};

/** Resolves once a new connection to the port is refused (polls; fails after 10 s). */
async function refused(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!accepted) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still accepts connections`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a service draining on SIGTERM', () => {
  const prefix = uniqueName('drain');
  let redis: Redis;
  let queues: QueueClient;
  const services: Service[] = [];
  const start = async (env: Record<string, string>) => {
    const s = await startService({ REDIS_URL: testServers().redisUrl, REDIS_PREFIX: prefix, ...env });
    services.push(s);
    return s;
  };
  const enqueueMail = () =>
    queues.enqueue('mail', 'mail.send', { to: 'drain@example.com', subject: 'drain', text: 'x' });

  beforeAll(() => {
    redis = createRedis(testServers().redisUrl);
    queues = new QueueClient(redis, prefix);
  });

  afterAll(async () => {
    for (const s of services) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await queues.queue('mail').obliterate({ force: true });
    await queues.close();
    redis.disconnect();
  });

  it('turns /readyz 503 first and keeps serving during the drain delay', async () => {
    // A delay longer than the test: what the proxy sees between SIGTERM and the listener closing.
    const s = await start({ DRAIN_DELAY_MS: '600000' });
    const base = `http://127.0.0.1:${s.port}`;
    expect((await httpRequest(`${base}/readyz`)).status).toBe(200);
    s.child.kill('SIGTERM');
    await s.line(logged('shutting down'));
    const ready = await httpRequest(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'shutting_down' });
    // Still alive and serving: requests the proxy sent before it noticed are answered.
    expect((await httpRequest(`${base}/healthz`)).status).toBe(200);
    expect((await httpRequest(`${base}/fast`)).json()).toEqual({ ok: true });
    s.child.kill('SIGKILL');
  });

  it('refuses new connections, finishes the request and the job in flight, then exits 0', async () => {
    const s = await start({ DRAIN_DELAY_MS: '0' });
    const base = `http://127.0.0.1:${s.port}`;
    const slow = httpRequest(`${base}/slow`);
    await s.line((l) => l === 'request started');
    const jobId = await enqueueMail();
    await s.line((l) => l === 'job started');

    s.child.kill('SIGTERM');
    await refused(s.port);
    expect(s.child.exitCode).toBeNull();
    s.release('request');
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ finished: true });
    // The job is still running, so the process waits for it.
    expect(s.child.exitCode).toBeNull();
    s.release('job');
    expect(await s.exited).toBe(0);
    const job = await queues.queue('mail').getJob(jobId);
    expect(await job?.getState()).toBe('completed');
    expect(job?.returnvalue).toBe('sent');
  });

  it('stops as on SIGTERM when the fleet runner that started it is killed, instead of living on as an orphan', async () => {
    const log = join(tmpdir(), `${prefix}-orphan.log`);
    rmSync(log, { force: true });
    // A stand-in for the fleet runner: starts the service as the runner does (naming itself as
    // the supervisor), says its pid, and is then killed with SIGKILL.
    const runner = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
         const out = require('node:fs').openSync(${JSON.stringify(log)}, 'a');
         const child = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(script)}], {
           env: { ...process.env, FLEET_SUPERVISOR_PID: String(process.pid) },
           stdio: ['ignore', out, out],
         });
         console.log(child.pid);
         setInterval(() => {}, 1000);`,
      ],
      {
        env: { ...process.env, REDIS_URL: testServers().redisUrl, REDIS_PREFIX: prefix },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const pid = Number(
      await new Promise<string>((resolve) =>
        runner.stdout.once('data', (d: Buffer) => resolve(d.toString())),
      ),
    );
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const output = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
    try {
      for (const deadline = Date.now() + 60_000; !output().includes('listening ');) {
        if (Date.now() > deadline) throw new Error(`the service did not start:\n${output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      runner.kill('SIGKILL');
      for (const deadline = Date.now() + 10_000; alive();) {
        if (Date.now() > deadline) throw new Error(`the service outlived its runner:\n${output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const lines = output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; signal?: string });
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'shutting down', signal: 'supervisor gone' }),
      );
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'stopped' }));
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
      if (runner.exitCode === null) runner.kill('SIGKILL');
      rmSync(log, { force: true });
    }
  });

  it('gives up after SHUTDOWN_TIMEOUT_MS when a job does not finish, and exits 1', async () => {
    const s = await start({ DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '300' });
    const jobId = await enqueueMail();
    await s.line((l) => l === 'job started');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(1);
    await s.line(logged('shutdown timed out'));
    // Not completed: BullMQ's stalled-job check hands it to the next worker.
    const job = await queues.queue('mail').getJob(jobId);
    expect(await job?.getState()).toBe('active');
  });
});
