// Issue #17 "Start-up": the start command's time to every /readyz green through the proxy, for a
// first start on empty databases (migrations, the whole demo seed) and for a second start on the
// same databases (the seed markers say it is done: no seed step runs). All 11 demo tenants on
// databases, Redis keys and files private to this run (prefix), removed at the end; it does not
// touch a running demo fleet (own ports). The second start runs twice on the same data: the
// TypeScript source through tsx (the baseline) and the compiled bundles the start command runs
// (`pnpm build` first), each followed by the idle RSS of every process after two quiet minutes; the
// compiled fleet once more with the idle collection off and once with glibc's own malloc behaviour
// instead of the fleet's settings (deploy/fleet/malloc-env.ts), as their baselines.
// Run: pnpm build && node --import tsx deploy/bench/start-restart.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceNames } from '@aplt/config';
import { dropFleetDatabases, freePort, httpRequest } from '@aplt/testing';
import { defaultGlibcTunables } from '../fleet/malloc-env';
import { startFleet } from '../fleet/run-fleet';
import { demoTenants } from '../fleet/seeds/demo-tenants';

const pg = { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' };
const mysql = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const prefix = `bench_start_${process.pid}_`;
const work = mkdtempSync(join(tmpdir(), 'start-bench-'));
const proxyPort = await freePort();
const env = {
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
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_PREFIX: prefix,
  PROXY_PORT: String(proxyPort),
  FLEET_PORTS: 'auto',
  FLEET_DB_PREFIX: prefix,
  LICENSE_CACHE_DIR: join(work, 'cache'),
  FILE_STORE_DIR: join(work, 'files'),
  DEVPROJECTS_GIT_DIR: join(work, 'repos'),
  FLEET_MAIL_DIR: join(work, 'mail'),
  FLEET_SECRETS_FILE: join(work, 'secrets.env'),
  LOG_LEVEL: 'warn',
};

const tenantServices = serviceNames.filter(
  (s) => !['access', 'portal', 'logo-modal', 'storefront'].includes(s),
);
const probes: Array<[string, string]> = [
  ...demoTenants.flatMap((t) =>
    tenantServices.map((s): [string, string] => [`${t.id}.localhost`, `/-/${s}/readyz`]),
  ),
  ['access.localhost', '/readyz'],
  ['portal.localhost', '/readyz'],
  ['modal.localhost', '/readyz'],
];

async function allReady(): Promise<void> {
  for (;;) {
    const results = await Promise.all(
      probes.map(([host, path]) =>
        httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host }).then(
          (r) => r.status === 200,
          () => false,
        ),
      ),
    );
    if (results.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function timedStart(
  label: string,
  runtime: 'tsx' | 'compiled' = 'tsx',
  extra: Record<string, string> = {},
) {
  const lines: string[] = [];
  const t0 = performance.now();
  const fleet = await startFleet({
    env: { ...env, ...extra, FLEET_RUNTIME: runtime },
    log: (l) => lines.push(l),
  });
  await allReady();
  const ms = performance.now() - t0;
  const ran = lines.filter((l) => l.startsWith('seed: running ')).length;
  const split = lines.find((l) => l.startsWith('fleet ready in ')) ?? '';
  console.log(
    `${label}: all ${probes.length} /readyz green through the proxy in ${(ms / 1000).toFixed(1)} s; ${ran} seed step(s) ran; ${split}`,
  );
  return fleet;
}

async function cleanup() {
  await dropFleetDatabases(prefix, { pg, mysql });
  rmSync(work, { recursive: true, force: true });
}

/** Resident set size in MB of a running process (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

// Quiet long enough for start-up's background work (licence fetches, browser warm-up, the first
// stalled-job checks) to end and a service to collect after it (collectWhenIdle in @aplt/http):
// at one minute some services had not settled yet.
const IDLE_MS = 120_000;

async function idleRss(fleet: Awaited<ReturnType<typeof startFleet>>): Promise<Record<string, number>> {
  await new Promise((r) => setTimeout(r, IDLE_MS));
  return Object.fromEntries(
    fleet.processes().flatMap((p) => (p.pid === undefined ? [] : [[p.name, rssMb(p.pid)]])),
  );
}

try {
  const first = await timedStart(`first start (${demoTenants.length} tenants, empty databases)`);
  await first.stop();
  const second = await timedStart('second start (same databases), source through tsx', 'tsx');
  const tsxRss = await idleRss(second);
  await second.stop();
  // Baseline for the idle collection: the same compiled fleet with it turned off.
  const held = await timedStart('second start (same databases), compiled, no idle collection', 'compiled', {
    IDLE_COLLECT_INTERVAL_MS: '0',
  });
  const heldRss = await idleRss(held);
  await held.stop();
  // Baseline for the fleet's malloc settings (deploy/fleet/malloc-env.ts): glibc's own.
  const arenas = await timedStart(
    'second start (same databases), compiled, glibc malloc defaults',
    'compiled',
    {
      GLIBC_TUNABLES: defaultGlibcTunables(availableParallelism()),
    },
  );
  const arenaRss = await idleRss(arenas);
  await arenas.stop();
  const third = await timedStart('second start (same databases), compiled bundles', 'compiled');
  const compiledRss = await idleRss(third);
  await third.stop();
  const col = (v: number | undefined) => (v ?? Number.NaN).toFixed(1).padStart(10);
  console.log(`\nidle RSS after ${IDLE_MS / 1000} s, MB   compiled  not collected  glibc malloc  tsx`);
  for (const name of Object.keys(compiledRss))
    console.log(
      `  ${name.padEnd(22)} ${col(compiledRss[name])}  ${col(heldRss[name])}  ${col(arenaRss[name])}      ${col(tsxRss[name])}`,
    );
  const services = Object.keys(compiledRss).filter((n) => n !== 'storefront');
  const max = Math.max(...services.map((n) => compiledRss[n]!));
  console.log(
    `  largest compiled service: ${max.toFixed(1)} MB (goal <= 90 MB; the storefront is Next's own server)`,
  );
} finally {
  await cleanup();
}
process.exit(0);
