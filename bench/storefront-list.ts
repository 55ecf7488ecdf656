// The storefront's product list page `http://shop.acme.localhost/nl`, server-rendered by
// `next start` (gatekeeper on, this machine approved), at 50 connections, beside
// `GET /store/aplt/products` on `acme.localhost` alone (the same query the page asks for), in the
// same run, both through the local proxy (Caddy with forward auth) of a fleet started on the start
// command's path with its logging (bench/storefront-fleet.ts). Each is warmed first, so the page's
// caches and the API's page cache are warm; rounds alternate API and page. A third case shows the
// floor under the page: the storefront's /healthz (a Next route handler, no React) through the
// same proxy and forward auth. Goal of issue #15: the page at >= 60 % of the API's requests/s.
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
    page: {
      name: 'GET /nl on shop.acme.localhost (server-rendered page)',
      host: 'shop.acme.localhost',
      path: '/nl',
    },
    floor: {
      name: 'GET /healthz on shop.acme.localhost (Next route handler, no render)',
      host: 'shop.acme.localhost',
      path: '/healthz',
    },
  };
  const run = (c: { host: string; path: string }, duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${proxyPort}${c.path}`,
      headers: { host: c.host, accept: c.host.startsWith('shop.') ? 'text/html' : 'application/json' },
      connections: CONNECTIONS,
      duration,
    });
  const keys = ['api', 'page', 'floor'] as const;
  const results: Record<(typeof keys)[number], { rps: number[]; p50: number[]; p99: number[]; bad: number }> =
    {
      api: { rps: [], p50: [], p99: [], bad: 0 },
      page: { rps: [], p50: [], p99: [], bad: 0 },
      floor: { rps: [], p50: [], p99: [], bad: 0 },
    };
  for (const key of keys) await run(cases[key], 3);
  for (let round = 0; round < ROUNDS; round++)
    for (const key of keys) {
      const r = await run(cases[key], DURATION);
      results[key].rps.push(r.requests.average);
      results[key].p50.push(r.latency.p50);
      results[key].p99.push(r.latency.p99);
      results[key].bad += r.non2xx + r.errors + r.timeouts;
      console.log(
        `  round ${round + 1} ${key.padEnd(4)} ${Math.round(r.requests.average)} req/s p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms`,
      );
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
  const ratio = (100 * mean(results.page.rps)) / mean(results.api.rps);
  console.log(`page / API: ${ratio.toFixed(1)} % of the API's requests/s (goal >= 60 %)`);
  console.log(
    `page / Next floor: ${((100 * mean(results.page.rps)) / mean(results.floor.rps)).toFixed(0)} %; floor / API: ${((100 * mean(results.floor.rps)) / mean(results.api.rps)).toFixed(0)} %`,
  );
  console.log(`service logs: ${fleet.logFile}`);
} finally {
  await fleet.stop();
}
