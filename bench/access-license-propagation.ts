// License fetch round trip (full 200 and conditional 304) beside a bare Fastify 204 round trip,
// and the time from a license write until every client sees it, with push on (target < 1 s) and
// off (polling at the real 60 s interval).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessFixture, bareServer, HttpLicenseClient, percentile } from '../services/access/bench/fixture';

const CLIENTS = Number(process.env.CLIENTS ?? 10);
const N = Number(process.env.N ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const POLL_SECONDS = Number(process.env.POLL_SECONDS ?? 60);
const quiet = { info: () => {}, warn: () => {} };

const fx = await accessFixture({ redis: true });
const bare = await bareServer();
const dir = mkdtempSync(join(tmpdir(), 'license-bench-'));
const clients: HttpLicenseClient[] = [];
try {
  const licenseUrl = `${fx.url}/api/license/acme`;
  // License reads need the service token, as the backends' clients send it.
  const svc = { authorization: `Bearer ${fx.serviceToken}` };
  const etag = (await fetch(licenseUrl, { headers: svc })).headers.get('etag')!;
  const timed = async (fn: () => Promise<Response>, expect: number) => {
    const out: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      const r = await fn();
      await r.arrayBuffer();
      out.push(performance.now() - t);
      if (r.status !== expect) throw new Error(`expected ${expect}, got ${r.status}`);
    }
    return out;
  };
  for (let i = 0; i < 50; i++) await (await fetch(licenseUrl, { headers: svc })).arrayBuffer(); // warm-up
  const bareMs = await timed(() => fetch(bare.url), 204);
  const fullMs = await timed(() => fetch(licenseUrl, { headers: svc }), 200);
  const condMs = await timed(() => fetch(licenseUrl, { headers: { ...svc, 'if-none-match': etag } }), 304);
  const fmt = (xs: number[]) =>
    `p50 ${percentile(xs, 50).toFixed(2)} ms  p99 ${percentile(xs, 99).toFixed(2)} ms`;
  console.log(`bare Fastify 204 round trip (baseline)   ${fmt(bareMs)}`);
  console.log(`GET /api/license/acme (200, full body)   ${fmt(fullMs)}`);
  console.log(`GET /api/license/acme (304, If-None-Match) ${fmt(condMs)}`);

  // A CSRF pair as a browser gets it: the secret in the cookie, a token made from it for the header.
  const csrfRes = await fetch(`${fx.url}/api/auth/csrf`);
  const csrfCookie = csrfRes.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrfToken = ((await csrfRes.json()) as { csrf_token: string }).csrf_token;
  const headers = {
    cookie: `aplt_session=${fx.session}; ${csrfCookie}`,
    'x-csrf-token': csrfToken,
    'content-type': 'application/json',
  };
  const put = async (enabled: boolean) => {
    const r = await fetch(licenseUrl, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ feature: 'crm', enabled }),
    });
    if (r.status !== 200) throw new Error(`PUT answered ${r.status}`);
  };
  const untilAll = async (group: HttpLicenseClient[], enabled: boolean, started: number, limitMs: number) => {
    while (!group.every((c) => c.isFeatureEnabled('acme', 'crm') === enabled)) {
      if (performance.now() - started > limitMs) return Number.NaN;
      await new Promise((r) => setTimeout(r, 1));
    }
    return performance.now() - started;
  };

  const pushed = Array.from(
    { length: CLIENTS },
    () =>
      new HttpLicenseClient({
        apiUrl: fx.url,
        serviceToken: fx.serviceToken,
        cacheDir: dir,
        refreshSeconds: 60,
        redis: { url: fx.redisUrl, prefix: fx.prefix },
        logger: quiet,
      }),
  );
  clients.push(...pushed);
  await Promise.all(pushed.map((c) => c.start(['acme'])));
  while (!pushed.every((c) => c.pushConnected)) await new Promise((r) => setTimeout(r, 10));
  const pushMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const enabled = i % 2 === 0;
    const t = performance.now();
    await put(enabled);
    pushMs.push(await untilAll(pushed, enabled, t, 5000));
  }
  console.log(
    `write -> all ${CLIENTS} clients see it, push on:  ${fmt(pushMs)}  max ${Math.max(...pushMs).toFixed(1)} ms (target < 1000 ms, ${ROUNDS} writes)`,
  );
  await Promise.all(pushed.map((c) => c.close()));
  if (!pushed.every((c) => c.isFeatureEnabled('acme', 'crm') === (ROUNDS % 2 === 1)))
    throw new Error('state drift');

  const polled = Array.from(
    { length: CLIENTS },
    () =>
      new HttpLicenseClient({
        apiUrl: fx.url,
        serviceToken: fx.serviceToken,
        cacheDir: dir,
        refreshSeconds: POLL_SECONDS,
        redis: null,
        logger: quiet,
      }),
  );
  clients.push(...polled);
  await Promise.all(polled.map((c) => c.start(['acme'])));
  const target = !polled[0]!.isFeatureEnabled('acme', 'crm');
  const t = performance.now();
  await put(target);
  const pollMs = await untilAll(polled, target, t, POLL_SECONDS * 1000 + 5000);
  console.log(
    `write -> all ${CLIENTS} clients see it, push off: ${(pollMs / 1000).toFixed(1)} s (polling every ${POLL_SECONDS} s; one write)`,
  );
} finally {
  await Promise.all(clients.map((c) => c.close()));
  await bare.close();
  await fx.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
