// The storefront's product list page `http://shop.acme.localhost/nl` (gatekeeper on, this machine
// approved) at 50 connections, beside `GET /store/aplt/products` on `acme.localhost` alone (the
// same query the page asks for), in the same run, both through the local proxy (Caddy with
// forward auth) of a fleet started on the start command's path with its logging
// (bench/storefront-fleet.ts; the storefront is apps/storefront/server.mjs: Next's handler behind
// the page cache). Cases: the page from the page cache (warm), the page rendered by Next (every
// request its own query, so each one misses the page cache: what `next start` did before), and the
// floor under a render: the storefront's /healthz (a Next route handler, no React). Each is warmed
// first, so the storefront's data caches and the API's page cache are warm; rounds alternate the
// cases. Goal of issue #15: the page with the page cache warm at >= 60 % of the API's requests/s.
//   npx tsx bench/storefront-list.ts        (DURATION=10 seconds per run, ROUNDS=2)
import autocannon from 'autocannon';
import { startStorefrontFleet, viaProxy } from './storefront-fleet';

const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CONNECTIONS = 50;
const API_PATH = '/store/aplt/products?lang=nl&limit=12&offset=0';

const fleet = await startStorefrontFleet();
try {
  const { proxyPort } = fleet;
  const page = await viaProxy(proxyPort, 'shop.acme.localhost', '/nl', { headers: { accept: 'text/html' } });
  if (page.status !== 200 || !page.body.includes('product-card'))
    throw new Error(`the page answered ${page.status} ${String(page.headers.location ?? '')}`);
  const api = await viaProxy(proxyPort, 'acme.localhost', API_PATH);
  if (api.status !== 200) throw new Error(`the API answered ${api.status}: ${api.body}`);
  console.log(
    `page ${(page.body.length / 1024).toFixed(1)} KiB of HTML, API ${(api.body.length / 1024).toFixed(1)} KiB of JSON`,
  );

  const cases = {
    api: { name: `GET ${API_PATH} on acme.localhost (baseline)`, host: 'acme.localhost', path: API_PATH },
    cached: {
      name: 'GET /nl on shop.acme.localhost (page cache warm)',
      host: 'shop.acme.localhost',
      path: '/nl',
    },
    page: {
      name: 'GET /nl?r=<n> on shop.acme.localhost (rendered by Next: a miss each)',
      host: 'shop.acme.localhost',
      path: '/nl',
      unique: true,
    },
    floor: {
      name: 'GET /healthz on shop.acme.localhost (Next route handler, no render)',
      host: 'shop.acme.localhost',
      path: '/healthz',
    },
  };
  let n = 0;
  const run = (c: { host: string; path: string; unique?: boolean }, duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${proxyPort}${c.path}`,
      headers: { host: c.host, accept: c.host.startsWith('shop.') ? 'text/html' : 'application/json' },
      connections: CONNECTIONS,
      duration,
      // A query the page ignores, new on every request: the page cache never has it.
      ...(c.unique
        ? {
            requests: [
              { setupRequest: (req: autocannon.Request) => ({ ...req, path: `${c.path}?r=${++n}` }) },
            ],
          }
        : {}),
    });
  const cachedPage = await viaProxy(proxyPort, 'shop.acme.localhost', '/nl', {
    headers: { accept: 'text/html' },
  });
  console.log(`page cache on /nl: ${String(cachedPage.headers['x-page-cache'])} (after one render)`);
  const keys = ['api', 'cached', 'page', 'floor'] as const;
  type Result = { rps: number[]; p50: number[]; p99: number[]; bad: number };
  const results = Object.fromEntries(
    keys.map((k): [string, Result] => [k, { rps: [], p50: [], p99: [], bad: 0 }]),
  ) as Record<(typeof keys)[number], Result>;
  const states: Record<string, number> = {};
  for (const key of keys) await run(cases[key], 3);
  for (let round = 0; round < ROUNDS; round++)
    for (const key of keys) {
      const r = await run(cases[key], DURATION);
      results[key].rps.push(r.requests.average);
      results[key].p50.push(r.latency.p50);
      results[key].p99.push(r.latency.p99);
      results[key].bad += r.non2xx + r.errors + r.timeouts;
      console.log(
        `  round ${round + 1} ${key.padEnd(6)} ${Math.round(r.requests.average)} req/s p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms${r.non2xx + r.errors + r.timeouts ? ` (status ${JSON.stringify(r.statusCodeStats)}, errors ${r.errors}, timeouts ${r.timeouts})` : ''}`,
      );
    }
  // What the page cache answered the warm case, sampled after the runs.
  for (let i = 0; i < 20; i++) {
    const res = await viaProxy(proxyPort, 'shop.acme.localhost', '/nl', { headers: { accept: 'text/html' } });
    const state = String(res.headers['x-page-cache']);
    states[state] = (states[state] ?? 0) + 1;
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} x ${DURATION} s each, through Caddy with forward auth`,
  );
  for (const key of keys) {
    const r = results[key];
    console.log(
      `${cases[key].name.padEnd(72)} ${Math.round(mean(r.rps)).toString().padStart(6)} req/s  p50 ${mean(r.p50).toFixed(0)} ms  p99 ${mean(r.p99).toFixed(0)} ms${r.bad ? `  (${r.bad} errors/non-2xx)` : ''}`,
    );
  }
  const pct = (a: (typeof keys)[number]) => ((100 * mean(results[a].rps)) / mean(results.api.rps)).toFixed(1);
  console.log(`page cache warm / API: ${pct('cached')} % of the API's requests/s (goal >= 60 %)`);
  console.log(`rendered page / API: ${pct('page')} %; Next floor / API: ${pct('floor')} %`);
  console.log(`page cache answers to /nl after the runs: ${JSON.stringify(states)}`);
  console.log(`service logs: ${fleet.logFile}`);
} finally {
  await fleet.stop();
}
