// /api/validate throughput and p99 at 50 connections per allow path (whitelisted IP, session
// cookie, device token) and the deny path, beside a bare Fastify route answering 204 in the same
// run. Target: >= 80 % of the bare route's requests/s, p99 < 5 ms.
// And what the identity assertion costs: the same allow paths on the forward-auth handler built
// twice in the same process, with the signer and without it (no x-access-assertion header).
// Target: signed >= 90 % of unsigned requests/s.
// The servers run in a child process; autocannon here plays the proxy.
// Logging as the start command runs it (LOG_LEVEL, default info; JSON written asynchronously
// straight into a file, .run/bench/access-validate.log, removed at the end unless KEEP_BENCH_LOGS): the decision line of every
// /api/validate, one line per request of the Fastify routes. The baseline of the 80 % target is
// bare Fastify with the same logger and the same one line per request.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import autocannon from 'autocannon';
import { serviceMallocEnv } from '../deploy/fleet/malloc-env';

const DURATION = Number(process.env.DURATION ?? 3);
const CONNECTIONS = 50;

// Clients arrive through a trusted proxy (127.0.0.1), which reports them in X-Forwarded-For.
const LOG_FILE = new URL('../.run/bench/access-validate.log', import.meta.url).pathname;
mkdirSync(new URL('../.run/bench/', import.meta.url).pathname, { recursive: true });
const logFd = openSync(LOG_FILE, 'w');
// The servers run compiled, as the start command runs the fleet: services/access/bench/serve.ts
// bundled by the fleet's bundler and started with plain node (BENCH_RUNTIME=tsx: from source).
const accessDir = new URL('../services/access/', import.meta.url).pathname;
let serveArgs = ['--import', 'tsx', 'bench/serve.ts'];
if ((process.env.BENCH_RUNTIME ?? 'compiled') === 'compiled') {
  const { bundlePackage } = await import('../deploy/build/bundle');
  const outdir = new URL('../.run/bench/access-dist', import.meta.url).pathname;
  await bundlePackage(accessDir, ['bench/serve.ts'], outdir);
  serveArgs = [`${outdir}/serve.mjs`];
}
console.log(`servers run ${serveArgs.length === 1 ? 'compiled (bundle)' : 'from source through tsx'}`);
const child = spawn(process.execPath, serveArgs, {
  cwd: accessDir,
  env: { ...process.env, ...serviceMallocEnv, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  stdio: ['ignore', logFd, 'inherit', 'pipe'],
});
closeSync(logFd);
const [line] = (await once(createInterface({ input: child.stdio[3] as Readable }), 'line')) as [string];
const fx = JSON.parse(line) as {
  url: string;
  bareUrl: string;
  bareLoggedUrl: string;
  signedUrl: string;
  unsignedUrl: string;
  session: string;
  device: string;
  cpu: Record<string, { signedNs: number; unsignedNs: number }>;
};
const bare = {
  url: fx.bareUrl,
  close: async () => {
    child.kill('SIGINT');
    await once(child, 'exit');
  },
};

const forwarded = {
  'x-forwarded-method': 'GET',
  'x-forwarded-host': 'acme.localhost',
  'x-forwarded-uri': '/app',
};
const allowPaths = [
  { path: 'whitelisted IP', headers: { ...forwarded, 'x-forwarded-for': '10.1.2.3' } },
  {
    path: 'session cookie',
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', cookie: `aplt_session=${fx.session}` },
  },
  {
    path: 'device token',
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', cookie: `aplt_device=${fx.device}` },
  },
];
interface Case {
  name: string;
  url: string;
  headers: Record<string, string>;
  status: number;
  /** Must (true) or must not (false) carry x-access-assertion; undefined: not checked. */
  asserted?: boolean;
}
const pairCases = (label: string, base: string, asserted: boolean): Case[] =>
  allowPaths.map((p) => ({
    name: `${label}: ${p.path}`,
    url: `${base}/api/validate`,
    headers: p.headers,
    status: 200,
    asserted,
  }));
const cases: Case[] = [
  { name: 'bare Fastify 204 + logger (baseline)', url: fx.bareLoggedUrl, headers: {}, status: 204 },
  { name: 'bare Fastify JSON 401 + logger', url: `${fx.bareLoggedUrl}-401`, headers: {}, status: 401 },
  { name: 'bare Fastify 204, no logging', url: bare.url, headers: {}, status: 204 },
  // The same app stack (createApp: request ids, hooks, trustProxy) without any decision: how much
  // of the gap to the bare route is the fleet's shared stack rather than forward auth itself.
  { name: 'access GET /healthz (stack)', url: `${fx.url}/healthz`, headers: {}, status: 200 },
  ...pairCases('allow', fx.url, true),
  {
    name: 'deny (JSON 401)',
    url: `${fx.url}/api/validate`,
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', accept: 'application/json' },
    status: 401,
  },
  // The assertion's cost: the same handler on the same kind of server, with and without the signer.
  ...pairCases('handler, no assertion', fx.unsignedUrl, false),
  ...pairCases('handler, signed', fx.signedUrl, true),
];

// Rounds interleave the cases (every other round backwards), so load from elsewhere on the
// machine and the order within a round hit all of them alike.
const ROUNDS = Number(process.env.ROUNDS ?? 3);
try {
  for (const c of cases) {
    const check = await fetch(c.url, { headers: c.headers });
    if (check.status !== c.status) throw new Error(`${c.name}: expected ${c.status}, got ${check.status}`);
    if (c.asserted !== undefined && check.headers.has('x-access-assertion') !== c.asserted)
      throw new Error(`${c.name}: x-access-assertion ${c.asserted ? 'missing' : 'present'}`);
    await autocannon({ url: c.url, headers: c.headers, connections: CONNECTIONS, duration: 1 }); // warm-up
  }
  const results = cases.map(() => ({
    rps: [] as number[],
    p50: [] as number[],
    p99: [] as number[],
    unexpected: 0,
  }));
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...cases.entries()];
    if (round % 2) order.reverse();
    for (const [i, c] of order) {
      const r = await autocannon({
        url: c.url,
        headers: c.headers,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const res = results[i]!;
      res.rps.push(r.requests.average);
      res.p50.push(r.latency.p50);
      res.p99.push(r.latency.p99);
      res.unexpected += (c.status === 401 ? r.requests.total - r.non2xx : r.non2xx) + r.errors;
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const baseline = mean(results[0]!.rps);
  const jsonBaseline = mean(results[1]!.rps);
  for (const [i, c] of cases.entries()) {
    const r = results[i]!;
    console.log(
      `${c.name.padEnd(40)} ${mean(r.rps).toFixed(0).padStart(7)} req/s  p50 ${mean(r.p50).toFixed(1)} ms  p99 ${mean(r.p99).toFixed(1)} ms  ` +
        `${((mean(r.rps) / baseline) * 100).toFixed(0)} % of bare` +
        (c.status === 401
          ? ` (${((mean(r.rps) / jsonBaseline) * 100).toFixed(0)} % of the bare JSON 401)`
          : '') +
        (r.unexpected ? `  (${r.unexpected} unexpected answers)` : ''),
    );
  }
  console.log(
    `target: >= 80 % of bare (same logger) req/s, p99 < 5 ms (${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s, servers in their own process, ` +
      `LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'} written asynchronously to ${LOG_FILE})`,
  );
  console.log('\nidentity assertion (signed vs. the same handler without it, same run):');
  const byName = new Map(cases.map((c, i) => [c.name, results[i]!]));
  const ratios: number[] = [];
  for (const p of allowPaths) {
    const on = byName.get(`handler, signed: ${p.path}`)!;
    const off = byName.get(`handler, no assertion: ${p.path}`)!;
    const ratio = mean(on.rps) / mean(off.rps);
    ratios.push(ratio);
    console.log(
      `  ${p.path.padEnd(16)} signed ${mean(on.rps).toFixed(0).padStart(7)} req/s (p99 ${mean(on.p99).toFixed(1)} ms)  ` +
        `without ${mean(off.rps).toFixed(0).padStart(7)} req/s (p99 ${mean(off.p99).toFixed(1)} ms)  ` +
        `ratio ${(ratio * 100).toFixed(1)} %`,
    );
  }
  console.log(`  worst ratio ${(Math.min(...ratios) * 100).toFixed(1)} % (target >= 90 %, i.e. within 10 %)`);
  console.log('handler CPU per allow, in-process without HTTP (median of 15 alternating blocks of 20,000):');
  for (const [path, t] of Object.entries(fx.cpu))
    console.log(
      `  ${path.padEnd(16)} signed ${(t.signedNs / 1000).toFixed(2)} µs  without ${(t.unsignedNs / 1000).toFixed(2)} µs  ` +
        `(+${((t.signedNs - t.unsignedNs) / 1000).toFixed(2)} µs per request)`,
    );
} finally {
  await bare.close();
  console.log(`log: ${(statSync(LOG_FILE).size / 1e6).toFixed(1)} MB written to ${LOG_FILE}`);
  // Gigabytes after a full run: kept only when asked.
  if (!process.env.KEEP_BENCH_LOGS) rmSync(LOG_FILE, { force: true });
}
