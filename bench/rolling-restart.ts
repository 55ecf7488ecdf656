/**
 * Rolling restart under load (issue #18): the start command's fleet (deploy/test/fleet-fixture.ts:
 * migrate, seed, every process as its own child, Caddy) with FLEET_REPLICAS=2 on private databases, Redis keys and files,
 * removed afterwards; the services' lines go to .run/bench-rolling-<pid>.log. Steady keep-alive GET traffic through the proxy reaches every HTTP service (each
 * tenant backend's /-/<service>/healthz and the tenant root behind forward auth, so the access
 * service too; portal and logo modal on their hosts), then every process is restarted one
 * replica at a time through the runner's restart API (SIGTERM: /readyz 503, drain, exit; started
 * again; ready), waiting until the proxy can see it ready before the next. Reports failed
 * requests (goal 0) and p99 during the restart beside p99 of the same load before it (goal <= 3x).
 *
 * Knobs: CONNECTIONS (8), BASELINE_SECONDS (20), SETTLE_MS (3000: after a replica is ready, the
 * proxy's health checks run every 2 s), FLEET_RUNTIME (tsx; `compiled` after `pnpm build`),
 * ONLY (comma list of process names to restart, default all).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFleetFixture } from '../deploy/test/fleet-fixture';
import { type LoadResult, steadyLoad } from '../deploy/test/steady-load';
import { deleteRedisPrefix } from '../services/catalog/bench/fixture';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const BASELINE_SECONDS = Number(process.env.BASELINE_SECONDS ?? 20);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3_000);
const ONLY = (process.env.ONLY ?? '').split(',').filter(Boolean);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOST = 'acme.localhost';
const targets = [
  { host: HOST, path: '/' },
  ...['auth', 'password-sync', 'documents', 'catalog', 'gatekeeper', 'devprojects', 'admin'].map((s) => ({
    host: HOST,
    path: `/-/${s}/healthz`,
  })),
  { host: 'portal.localhost', path: '/healthz' },
  { host: 'modal.localhost', path: '/healthz' },
];

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The requests that finished in [from, to) of one load run. */
function window(r: LoadResult, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < r.latencies.length; i++) {
    const at = r.finishedAt[i]!;
    if (at >= from && at < to) out.push(r.latencies[i]!);
  }
  return out;
}

async function readyAgain(port: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    // The storefront (Next) has no /readyz: its /healthz is its readiness.
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (res?.status === 200) return;
    if (res?.status === 404 && (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return;
    if (Date.now() > deadline) throw new Error(`port ${port}: /readyz not 200 after 180 s`);
    await sleep(100);
  }
}

const prefix = `benchroll${process.pid}_`;
const pg = {
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
  password: process.env.PG_PASS ?? '',
};
const mysql = {
  host: process.env.MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.MYSQL_PORT ?? 3306),
  user: process.env.MYSQL_USER ?? 'root',
  password: process.env.MYSQL_PASSWORD ?? '',
};
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
mkdirSync('.run', { recursive: true });
const logFile = join('.run', `bench-rolling-${process.pid}.log`);
const logStream = createWriteStream(logFile);

console.log(`starting the fleet with FLEET_REPLICAS=2 (service logs: ${logFile}) ...`);
const started = performance.now();
const f = await startFleetFixture(
  'master,acme',
  {
    FLEET_REPLICAS: process.env.FLEET_REPLICAS ?? '2',
    FLEET_RUNTIME: process.env.FLEET_RUNTIME ?? 'tsx',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
  { servers: { pg, mysql, redisUrl }, prefix, onOutput: (line) => logStream.write(`${line}\n`) },
);
try {
  console.log(`fleet ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const t of targets) {
    const res = await f.via(t.host, t.path);
    if (res.status !== 200) throw new Error(`${t.host}${t.path} answers ${res.status} before the load`);
  }
  const load = steadyLoad({ port: f.proxyPort, targets, connections: CONNECTIONS });
  await sleep(5_000); // warm-up, not measured
  const baselineFrom = performance.now();
  await sleep(BASELINE_SECONDS * 1000);
  const baselineTo = performance.now();
  const failedBefore = load.result.failures.length;

  const order = f.fleet
    .processes()
    .filter((p) => ONLY.length === 0 || ONLY.includes(p.name) || ONLY.includes(p.process));
  console.log(`restarting ${order.length} processes one at a time: ${order.map((p) => p.name).join(', ')}`);
  const restartFrom = performance.now();
  for (const p of order) {
    const t0 = performance.now();
    await f.fleet.restart(p.name);
    if (p.port !== null) await readyAgain(p.port);
    await sleep(SETTLE_MS);
    console.log(
      `  ${p.name.padEnd(18)} back in ${((performance.now() - t0 - SETTLE_MS) / 1000).toFixed(1)} s; failed requests so far ${load.result.failures.length - failedBefore}`,
    );
  }
  const restartTo = performance.now();
  const result = await load.stop();

  const before = window(result, baselineFrom, baselineTo);
  const during = window(result, restartFrom, restartTo);
  const failed = result.failures.length - failedBefore;
  const p99Before = percentile(before, 99);
  const p99During = percentile(during, 99);
  const row = (label: string, v: number[], secs: number) =>
    `| ${label} | ${v.length} | ${(v.length / secs).toFixed(0)} | ${percentile(v, 50).toFixed(1)} | ${percentile(v, 99).toFixed(1)} |`;
  console.log(`
${CONNECTIONS} keep-alive clients over ${targets.length} routes through Caddy, FLEET_REPLICAS=2, ${order.length} processes restarted
| phase | requests | req/s | p50 ms | p99 ms |
|---|---|---|---|---|
${row('before (baseline)', before, (baselineTo - baselineFrom) / 1000)}
${row('during the rolling restart', during, (restartTo - restartFrom) / 1000)}

failed requests during the restart: ${failed} (goal 0)${failedBefore ? `; ${failedBefore} before it` : ''}
p99 during / before: ${(p99During / p99Before).toFixed(2)}x (goal <= 3x)
rolling restart took ${((restartTo - restartFrom) / 1000).toFixed(1)} s`);
  if (result.failures.length) {
    const counts = new Map<string, number>();
    for (const fl of result.failures) counts.set(fl, (counts.get(fl) ?? 0) + 1);
    console.log('failures:', Object.fromEntries(counts));
  }
} finally {
  await f.stop();
  await deleteRedisPrefix(redisUrl, prefix);
  logStream.end();
}
