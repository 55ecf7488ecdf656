import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectWhenIdle, fullCollection } from '../src/idle-memory';

const run = promisify(execFile);

describe('collectWhenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects in the first quiet interval after a busy one or after the resident set grew, never under load', async () => {
    vi.useFakeTimers();
    const MB = 1024 * 1024;
    let cpu = 0;
    let rss = 150 * MB;
    const collect = vi.fn(() => {
      cpu += 50_000; // the collection's own CPU time must not count as activity
      rss -= 40 * MB;
    });
    const stop = collectWhenIdle({
      intervalMs: 1_000,
      quietCpuMs: 10,
      growthMb: 8,
      cpuMicros: () => cpu,
      rssBytes: () => rss,
      collect,
    });
    const interval = async (cpuMs: number, growMb = 0) => {
      cpu += cpuMs * 1_000;
      rss += growMb * MB;
      await vi.advanceTimersByTimeAsync(1_000);
    };
    // Start-up was busy; the first quiet interval collects its garbage.
    await interval(500);
    expect(collect).not.toHaveBeenCalled();
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(1);
    // Quiet from then on, nothing grown: never again, however long.
    for (let i = 0; i < 10; i++) await interval(2);
    expect(collect).toHaveBeenCalledTimes(1);
    // Steady load that grows the heap: never while it lasts.
    for (let i = 0; i < 10; i++) await interval(500, 5);
    expect(collect).toHaveBeenCalledTimes(1);
    // The first quiet interval after it collects.
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(2);
    // Quiet but grown by less than 8 MB since: nothing.
    await interval(1);
    await interval(1, 5);
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(2);
    // Grown by more (a burst between two samples): the next quiet interval collects.
    await interval(1, 6);
    expect(collect).toHaveBeenCalledTimes(3);
    // One busy interval (requests, a job) and the next quiet one collects again, grown or not.
    await interval(1);
    await interval(300);
    expect(collect).toHaveBeenCalledTimes(3);
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(4);
    stop();
    await interval(300);
    await interval(1, 50);
    expect(collect).toHaveBeenCalledTimes(4);
  });

  it("gets V8's full collection without --expose-gc", () => {
    const gc = fullCollection();
    expect(gc).toBeTypeOf('function');
    let garbage: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `x${i}` }));
    const before = process.memoryUsage().heapUsed;
    garbage = null;
    gc!();
    expect(garbage).toBeNull();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 10 * 1024 * 1024);
  });

  it('gives a quiet process its memory back, which V8 alone does not (RSS of real Node processes)', async () => {
    const module = fileURLToPath(new URL('../src/idle-memory.ts', import.meta.url));
    // Traffic through Fastify, then quiet: V8 keeps what the traffic grew the heap to.
    const script = (collector: boolean) => `
      import Fastify from 'fastify';
      import { collectWhenIdle } from ${JSON.stringify(module)};
      const app = Fastify({ logger: false });
      for (let i = 0; i < 200; i++) app.get('/r' + i, async () => ({ ok: true, i, data: 'x'.repeat(100) }));
      await app.ready();
      for (let i = 0; i < 20000; i++) await app.inject({ method: 'GET', url: '/r' + (i % 200) });
      const rss = () => Math.round(process.memoryUsage().rss / 1048576);
      const busy = rss();
      if (${collector}) collectWhenIdle({ intervalMs: 200 });
      setTimeout(() => console.log(JSON.stringify({ busy, quiet: rss() })), 2500);
    `;
    const measure = async (collector: boolean) => {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script(collector)],
        {
          cwd: fileURLToPath(new URL('..', import.meta.url)),
        },
      );
      return JSON.parse(stdout) as { busy: number; quiet: number };
    };
    const without = await measure(false);
    const withCollector = await measure(true);
    expect(without.busy).toBeGreaterThan(150);
    expect(without.quiet).toBeGreaterThan(without.busy - 40);
    expect(withCollector.quiet).toBeLessThan(withCollector.busy - 100);
  });
});
