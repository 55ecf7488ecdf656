import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserPool, PoolBusyError } from '@aplt/browser';
import { resolveChromiumPath } from '../../src/output/output.config';

const HTML = '<html><body><h1>Factuur F-2026-0001</h1></body></html>';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('BrowserPool with Debian Chromium', () => {
  const pools: BrowserPool[] = [];
  const makePool = (size: number, queueLimit?: number, onCrash?: () => void) => {
    const pool = new BrowserPool({
      executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH),
      size,
      queueLimit,
      onEvent: (event) => {
        if (event === 'crash') onCrash?.();
      },
    });
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('prefers the headless shell binary itself, not its wrapper script', () => {
    expect(resolveChromiumPath()).toMatch(/chromium-headless-shell$|chromium$/);
    expect(resolveChromiumPath('/opt/custom/chrome')).toBe('/opt/custom/chrome');
  });

  it('queues requests beyond the pool size and never starts a second browser', async () => {
    const pool = makePool(2);
    let inside = 0;
    let maxInside = 0;
    const pdfs = await Promise.all(
      Array.from({ length: 6 }, () =>
        pool.withPage(async (page) => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await page.setContent(HTML);
          const pdf = await page.pdf({ format: 'A4' });
          inside--;
          return Buffer.from(pdf);
        }),
      ),
    );
    expect(pdfs.every((p) => p.subarray(0, 5).toString() === '%PDF-')).toBe(true);
    expect(maxInside).toBe(2);
    expect(pool.stats).toMatchObject({ launches: 1, peakActive: 2, peakQueued: 4, renders: 6 });
  });

  it('a browser killed during a render costs no request: the render is retried on a new browser', async () => {
    const crashed = deferred();
    const pool = makePool(2, undefined, crashed.resolve);
    await pool.withPage(async (page) => page.setContent(HTML));
    const firstPid = pool.browserPid()!;
    const started = deferred();
    const gate = deferred();
    const inFlight = pool.withPage(async (page) => {
      await page.setContent(HTML);
      started.resolve();
      await gate.promise;
      return Buffer.from(await page.pdf({ format: 'A4' }));
    });
    await started.promise;
    process.kill(firstPid, 'SIGKILL');
    await crashed.promise;
    gate.resolve();
    const [pdf, next] = await Promise.all([
      inFlight,
      pool.withPage(async (page) => {
        await page.setContent(HTML);
        return Buffer.from(await page.pdf({ format: 'A4' }));
      }),
    ]);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(next.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pool.stats.crashes).toBe(1);
    expect(pool.stats.launches).toBe(2);
    expect(pool.browserPid()).not.toBe(firstPid);
  });

  it('a failing template fails only its own request and is not retried', async () => {
    const pool = makePool(1);
    let calls = 0;
    await expect(
      pool.withPage(async () => {
        calls++;
        throw new Error('template exploded');
      }),
    ).rejects.toThrow('template exploded');
    expect(calls).toBe(1);
    expect(await pool.ping()).toMatch(/HeadlessChrome|Chrome/);
  });

  it('readiness warms the browser in the background and then checks it over its protocol', async () => {
    const pool = makePool(1);
    expect(await pool.ping()).toBe('starting');
    await pool.withPage(async (page) => page.setContent(HTML));
    expect(await pool.ping()).toMatch(/Chrome/);
    expect(pool.stats.launches).toBe(1);
  });

  it('answers readiness from the running browser over its pipe, and attaches puppeteer only for the first page', async () => {
    const pool = makePool(1);
    expect(await pool.ping()).toBe('starting');
    await expect.poll(() => pool.ping(), { timeout: 20_000 }).toMatch(/HeadlessChrome|Chrome/);
    const pid = pool.browserPid()!;
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(pool.stats).toMatchObject({ launches: 1, attaches: 0 });

    const pdf = await pool.withPage(async (page) => {
      await page.setContent(HTML);
      return Buffer.from(await page.pdf({ format: 'A4' }));
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await pool.withPage(async (page) => page.setContent(HTML));
    // The same browser throughout: puppeteer attached to it once, readiness now asks through it.
    expect(pool.stats).toMatchObject({ launches: 1, attaches: 1 });
    expect(pool.browserPid()).toBe(pid);
    expect(await pool.ping()).toMatch(/Chrome/);

    // A browser killed before anything attached is noticed, and the next probe starts another.
    const idle = makePool(1);
    await idle.ping();
    await expect.poll(() => idle.ping(), { timeout: 20_000 }).toMatch(/Chrome/);
    const idlePid = idle.browserPid()!;
    process.kill(idlePid, 'SIGKILL');
    await expect.poll(() => idle.stats.crashes, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => idle.ping(), { timeout: 20_000 }).toMatch(/Chrome/);
    expect(idle.browserPid()).not.toBe(idlePid);
    expect(idle.stats).toMatchObject({ launches: 2, attaches: 0 });
  });

  it('a closed pool leaves no browser and no profile behind', async () => {
    const pool = makePool(1);
    await pool.withPage(async (page) => page.setContent(HTML));
    const pid = pool.browserPid()!;
    const profiles = () => readdirSync(tmpdir()).filter((d) => d.startsWith('aplt-chromium-')).length;
    const before = profiles();
    await pool.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(profiles()).toBe(before - 1);
  });

  it('a missing or broken browser fails the readiness ping and each render, not the process', async () => {
    const missing = new BrowserPool({ executablePath: () => '/nonexistent/chromium', size: 1 });
    pools.push(missing);
    await expect(missing.ping()).rejects.toThrow('not found');
    await expect(missing.withPage(async () => 'never')).rejects.toThrow();

    const broken = new BrowserPool({ executablePath: '/bin/false', size: 1 });
    pools.push(broken);
    await expect(broken.withPage(async () => 'never')).rejects.toThrow();
    await expect(broken.ping()).rejects.toThrow();
  });

  it('refuses beyond the queue limit instead of piling up', async () => {
    const pool = makePool(1, 1);
    const gate = deferred();
    const busy = pool.withPage(() => gate.promise);
    const queued = pool.withPage(async () => 'queued');
    await expect(pool.withPage(async () => 'third')).rejects.toBeInstanceOf(PoolBusyError);
    gate.resolve();
    await busy;
    expect(await queued).toBe('queued');
    await pool.close();
    await expect(pool.withPage(async () => 'after close')).rejects.toThrow('closed');
  });
});
