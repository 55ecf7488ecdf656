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

  it('collects once after quiet intervals follow a busy one, never while busy, and again after the next burst', async () => {
    vi.useFakeTimers();
    let cpu = 0;
    const collect = vi.fn(() => {
      cpu += 50_000; // the collection's own CPU time must not count as activity
    });
    const stop = collectWhenIdle({
      intervalMs: 1_000,
      quietCpuMs: 10,
      quietIntervals: 2,
      cpuMicros: () => cpu,
      collect,
    });
    const interval = async (cpuMs: number) => {
      cpu += cpuMs * 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
    };
    // Start-up counts as busy: two quiet intervals, then one collection.
    await interval(1);
    expect(collect).not.toHaveBeenCalled();
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(1);
    // Still quiet: nothing more, however long.
    for (let i = 0; i < 10; i++) await interval(2);
    expect(collect).toHaveBeenCalledTimes(1);
    // Steady load: never.
    for (let i = 0; i < 10; i++) await interval(500);
    expect(collect).toHaveBeenCalledTimes(1);
    // A quiet interval between two busy ones is not enough.
    await interval(1);
    await interval(500);
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(1);
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
    await interval(500);
    await interval(1);
    await interval(1);
    expect(collect).toHaveBeenCalledTimes(2);
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
