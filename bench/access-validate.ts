// /api/validate throughput and p99 at 50 connections per allow path (whitelisted IP, session
// cookie, device token) and the deny path, beside a bare Fastify route answering 204 in the same
// run. Target: >= 80 % of the bare route's requests/s, p99 < 5 ms.
// The servers run in a child process; autocannon here plays the proxy.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.DURATION ?? 4);
const CONNECTIONS = 50;

// Clients arrive through a trusted proxy (127.0.0.1), which reports them in X-Forwarded-For.
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts'], {
  cwd: new URL('../services/access/', import.meta.url).pathname,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
const fx = JSON.parse(line) as { url: string; bareUrl: string; session: string; device: string };
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
const cases: Array<{ name: string; url: string; headers: Record<string, string>; status: number }> = [
  { name: 'bare Fastify 204 (baseline)', url: bare.url, headers: {}, status: 204 },
  { name: 'bare Fastify JSON 401', url: `${bare.url}-401`, headers: {}, status: 401 },
  // The same app stack (createApp: request ids, hooks, trustProxy) without any decision: how much
  // of the gap to the bare route is the fleet's shared stack rather than forward auth itself.
  { name: 'access GET /healthz (stack)', url: `${fx.url}/healthz`, headers: {}, status: 200 },
  {
    name: 'allow: whitelisted IP',
    url: `${fx.url}/api/validate`,
    headers: { ...forwarded, 'x-forwarded-for': '10.1.2.3' },
    status: 200,
  },
  {
    name: 'allow: session cookie',
    url: `${fx.url}/api/validate`,
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', cookie: `aplt_session=${fx.session}` },
    status: 200,
  },
  {
    name: 'allow: device token',
    url: `${fx.url}/api/validate`,
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', cookie: `aplt_device=${fx.device}` },
    status: 200,
  },
  {
    name: 'deny (JSON 401)',
    url: `${fx.url}/api/validate`,
    headers: { ...forwarded, 'x-forwarded-for': '192.0.2.50', accept: 'application/json' },
    status: 401,
  },
];

// Rounds interleave the cases, so load from elsewhere on the machine hits all of them alike.
const ROUNDS = Number(process.env.ROUNDS ?? 3);
try {
  for (const c of cases) {
    const check = await fetch(c.url, { headers: c.headers });
    if (check.status !== c.status) throw new Error(`${c.name}: expected ${c.status}, got ${check.status}`);
    await autocannon({ url: c.url, headers: c.headers, connections: CONNECTIONS, duration: 1 }); // warm-up
  }
  const results = cases.map(() => ({
    rps: [] as number[],
    p50: [] as number[],
    p99: [] as number[],
    unexpected: 0,
  }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of cases.entries()) {
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
      `${c.name.padEnd(30)} ${mean(r.rps).toFixed(0).padStart(7)} req/s  p50 ${mean(r.p50).toFixed(1)} ms  p99 ${mean(r.p99).toFixed(1)} ms  ` +
        `${((mean(r.rps) / baseline) * 100).toFixed(0)} % of bare` +
        (c.status === 401
          ? ` (${((mean(r.rps) / jsonBaseline) * 100).toFixed(0)} % of the bare JSON 401)`
          : '') +
        (r.unexpected ? `  (${r.unexpected} unexpected answers)` : ''),
    );
  }
  console.log(
    `target: >= 80 % of bare req/s, p99 < 5 ms (${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s, servers in their own process, logging off)`,
  );
} finally {
  await bare.close();
}
