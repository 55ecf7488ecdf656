import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, flushLogs } from '../src';

const dir = mkdtempSync(join(tmpdir(), 'aplt-logging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Line = Record<string, unknown>;
const readLines = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

async function logsOf(level: string, file: string): Promise<Line[]> {
  const app = await createApp({ name: 'logtest', logLevel: level, docs: false, logDestination: file });
  app.get('/things/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  await app.ready();
  for (const url of ['/things/1', '/things/2?x=1', '/missing'])
    await app.inject({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer secret', 'x-request-id': url },
    });
  await app.close();
  await flushLogs(app.log);
  return readLines(file);
}

describe('request logging', () => {
  it('writes one structured line per request at info, with its answer and duration', async () => {
    const lines = (await logsOf('info', join(dir, 'info.log'))).filter((l) => l.reqId);
    expect(lines.map((l) => [l.reqId, l.msg, l.method, l.url, l.statusCode])).toEqual([
      ['/things/1', 'request completed', 'GET', '/things/1', 200],
      ['/things/2?x=1', 'request completed', 'GET', '/things/2?x=1', 200],
      ['/missing', 'request completed', 'GET', '/missing', 404],
    ]);
    for (const l of lines) {
      expect(l.service).toBe('logtest');
      expect(l.level).toBe(30);
      expect(typeof l.responseTime).toBe('number');
      expect(JSON.stringify(l)).not.toContain('secret');
    }
  });

  it('adds the incoming line at debug, so each request has an incoming/completed pair', async () => {
    const lines = (await logsOf('debug', join(dir, 'debug.log'))).filter((l) => l.reqId);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['/things/1', 'incoming request'],
      ['/things/1', 'request completed'],
      ['/things/2?x=1', 'incoming request'],
      ['/things/2?x=1', 'request completed'],
      ['/missing', 'incoming request'],
      ['/missing', 'request completed'],
    ]);
    expect(lines[0]).toMatchObject({ level: 20, method: 'GET', url: '/things/1' });
  });

  it('loses no buffered line when the service is stopped by SIGTERM right after a burst', async () => {
    const burst = 50_000;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/log-burst.ts')],
      {
        env: { ...process.env, BURST_LINES: String(burst) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const out: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (l) => out.push(l));
    const stderr = createInterface({ input: child.stderr! });
    let port = 0;
    for await (const l of stderr) {
      port = Number(/^listening (\d+)$/.exec(l)?.[1] ?? 0);
      if (port) break;
    }
    expect(port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${port}/burst`);
    expect(res.status).toBe(200);
    // Signalled as soon as the answer is in: most of the burst is still in the logger's buffer.
    child.kill('SIGTERM');
    // 'close': the process has exited and its stdout is read to the end.
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    const lines = out.map((l) => JSON.parse(l) as Line);
    const burstLines = lines.filter((l) => l.msg === 'burst line');
    expect(burstLines.length).toBe(burst);
    expect(burstLines.at(-1)?.i).toBe(burst - 1);
    const msgs = lines.map((l) => l.msg);
    expect(msgs).toContain('burst done');
    expect(msgs).toContain('request completed');
    expect(msgs.slice(-2)).toEqual(['shutting down', 'stopped']);
  }, 60_000);
});
