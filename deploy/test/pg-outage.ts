import type { HttpResponse } from '@aplt/testing';
import { expect } from 'vitest';

/** Issue #18: during an outage a request answers within this, and after the return succeeds within it. */
export const BOUND_MS = 5_000;

export async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Sample {
  tenant: 'acme' | 'globex';
  start: number;
  end: number;
  status: number;
  body: unknown;
}

/**
 * The outage scenario of issue #18 "Several database servers": two clients per tenant send
 * `request(tenant)` in a loop; the server that holds globex stops under that traffic and starts
 * again. Globex must answer 503 with the stable body (never 500, never a hang) while it is down and
 * 200 again within 5 s of its return; acme, on the other server, answers 200 throughout.
 */
export async function expectOutageContained(opts: {
  request: (tenant: 'acme' | 'globex') => Promise<HttpResponse>;
  server: { stop(): Promise<void>; start(): Promise<void> };
  /** Pause between one client's requests. */
  pauseMs?: number;
}): Promise<void> {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (tenant: 'acme' | 'globex') => {
    while (running) {
      const start = Date.now();
      const res = await Promise.race([
        opts.request(tenant),
        new Promise<HttpResponse>((r) =>
          setTimeout(() => r({ status: 0 } as HttpResponse), BOUND_MS + 5_000).unref(),
        ),
      ]);
      let body: unknown = null;
      try {
        body = res.status ? res.json() : null;
      } catch {
        body = res.text();
      }
      samples.push({ tenant, start, end: Date.now(), status: res.status, body });
      await new Promise((r) => setTimeout(r, opts.pauseMs ?? 25));
    }
  };
  const loops = [loop('acme'), loop('acme'), loop('globex'), loop('globex')];
  const of = (tenant: string, from = 0) => samples.filter((s) => s.tenant === tenant && s.start >= from);
  try {
    await until('traffic on both tenants', () => of('acme').length >= 5 && of('globex').length >= 5);
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    const stopAt = Date.now();
    await opts.server.stop();
    await until('503s for globex', () => of('globex', stopAt).filter((s) => s.status === 503).length >= 10);
    const backAt = Date.now();
    await opts.server.start();
    const startedAt = Date.now();
    await until(
      'globex answering again',
      () => of('globex', startedAt).some((s) => s.status === 200),
      30_000,
    );
    const firstOk = of('globex', startedAt).find((s) => s.status === 200)!;
    expect(firstOk.end - startedAt, 'first success after the return').toBeLessThan(BOUND_MS);
    // Keep the traffic a little longer: after the return everything succeeds.
    const settled = firstOk.end;
    await until(
      'traffic after the return',
      () => of('globex', settled).length >= 10 && of('acme', settled).length >= 10,
    );
    running = false;
    await Promise.all(loops);

    const bad = samples.filter((s) => s.end - s.start >= BOUND_MS || ![200, 503].includes(s.status));
    expect(bad, 'no request took 5 s or more, none answered other than 200/503').toEqual([]);
    expect(of('acme').filter((s) => s.status !== 200)).toEqual([]);
    expect(of('acme', stopAt).filter((s) => s.start < backAt).length).toBeGreaterThan(0);
    const outage = of('globex').filter((s) => s.status === 503);
    expect(outage.length).toBeGreaterThanOrEqual(10);
    for (const s of outage) {
      expect(s.start).toBeGreaterThanOrEqual(stopAt - 1_000);
      expect(s.body).toMatchObject({
        type: 'unavailable',
        reason: 'database_unavailable',
        message: 'A database of this tenant is unavailable; try again shortly',
        retry_after: 2,
      });
    }
    expect(of('globex', settled + 1).filter((s) => s.status !== 200)).toEqual([]);
  } finally {
    running = false;
    await Promise.allSettled(loops);
  }
}
