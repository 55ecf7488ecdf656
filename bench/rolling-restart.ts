/**
 * Rolling restart under load (issue #18): the start command's fleet (startFleet, as
 * deploy/test/fleet-fixture.ts runs it for tests, which needs vitest: migrate, seed, every process
 * as its own child, Caddy) with FLEET_REPLICAS=2 on private databases, Redis keys and files,
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
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMysqlDb, createPgDb, dropPgDatabase, sql } from '@aplt/db';
import { startFleet } from '../deploy/fleet/run-fleet';
import { freePort } from '../proxy/src/free-port';
import { type LoadResult, steadyLoad } from '../deploy/test/steady-load';
import { deleteRedisPrefix } from '../services/catalog/bench/fixture';
import { viaProxy } from './storefront-fleet';

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
const proxyPort = await freePort();
const work = mkdtempSync(join(tmpdir(), 'bench-rolling-'));
mkdirSync('.run', { recursive: true });
const logFile = join('.run', `bench-rolling-${process.pid}.log`);
const logStream = createWriteStream(logFile);
async function cleanup() {
  const admin = createPgDb({ ...pg, database: 'postgres' }, { max: 1 });
  try {
    const dbs = await sql<{
      datname: string;
    }>`select datname from pg_database where datname like ${`${prefix}%`}`.execute(admin);
    for (const row of dbs.rows) await dropPgDatabase(pg, row.datname);
  } finally {
    await admin.destroy();
  }
  const my = createMysqlDb({ ...mysql, database: 'mysql' }, { max: 1 });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(`${prefix}portal`)}`.execute(my);
  } finally {
    await my.destroy();
  }
  await deleteRedisPrefix(redisUrl, prefix);
  rmSync(work, { recursive: true, force: true });
  logStream.end();
}

console.log(`starting the fleet with FLEET_REPLICAS=2 (service logs: ${logFile}) ...`);
const started = performance.now();
const fleet = await startFleet({
  env: {
    PG_HOST: pg.host,
    PG_PORT: String(pg.port),
    PG_USER: pg.user,
    PG_PASS: pg.password,
    CONTROL_DB: `${prefix}control`,
    PG_DB: `${prefix}access`,
    MYSQL_HOST: mysql.host,
    MYSQL_PORT: String(mysql.port),
    MYSQL_USER: mysql.user,
    MYSQL_PASSWORD: mysql.password,
    PORTAL_DB: `${prefix}portal`,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    PROXY_PORT: String(proxyPort),
    FLEET_PORTS: 'auto',
    FLEET_DB_PREFIX: prefix,
    FLEET_TENANTS: 'master,acme',
    FLEET_REPLICAS: process.env.FLEET_REPLICAS ?? '2',
    FLEET_RUNTIME: process.env.FLEET_RUNTIME ?? 'tsx',
    LICENSE_CACHE_DIR: join(work, 'cache'),
    FILE_STORE_DIR: join(work, 'files'),
    DEVPROJECTS_GIT_DIR: join(work, 'repos'),
    FLEET_MAIL_DIR: join(work, 'mail'),
    FLEET_SECRETS_FILE: join(work, 'secrets.env'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
  log: (line) => logStream.write(`fleet| ${line}\n`),
  serviceOutput: (name, line) => logStream.write(`${name}| ${line}\n`),
}).catch(async (err: unknown) => {
  await cleanup().catch(() => {});
  throw err;
});
const f = { fleet, proxyPort, via: (host: string, path: string) => viaProxy(proxyPort, host, path) };
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
  await fleet.stop();
  await cleanup();
}
