// The admin panel's quotation list with 10,000 quotations in the tenant (issue #14: API p95 under
// 100 ms at page 1 and page 200): GET /admin/aplt/quotations?limit=20&offset=... as the panel asks
// for it (admin token, the proxy's identity assertion), its latency per request measured by a loop
// of timed requests from a few concurrent clients, beside a bare Fastify route that sends the same
// page-1 JSON from memory to the same loop in the same run. The quotations (two lines each, one
// with a setup cost) are written set-based in SQL into the service's own tables, as its repository
// would leave them, not by 10,000 HTTP calls.
//   npx tsx bench/admin-quotations.ts            (BENCH_QUOTATIONS, REQUESTS, CLIENTS to change)
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ControlDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  migrateToLatest,
  provisionTenant,
  sql,
  TenantDatabases,
  TenantRegistry,
  tenantDatabaseNames,
} from '@aplt/db';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient, bareJsonServer, proxyHeaders, secrets } from '../services/catalog/bench/fixture';
import { buildApp } from '@aplt/service-documents/app';
import { loadConfig } from '@aplt/service-documents/config';

const N = Number(process.env.BENCH_QUOTATIONS ?? 10_000);
/** Timed requests per case (after a warm-up of a tenth of them), spread over CLIENTS loops. */
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const PAGE_SIZE = 20;
const HOST = 'bench.localhost';
const server = {
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
  password: process.env.PG_PASS,
};
const prefix = `bench${process.pid}_`;
const controlName = `${prefix}control`;

await ensurePgDatabase(server, controlName);
const control = createPgDb<ControlDatabase>({ ...server, database: controlName }, { max: 2 });
await migrateToLatest(control, 'control');
const registry = new TenantRegistry(control);
await provisionTenant(
  registry,
  server,
  { id: 'bench', kind: 'tenant', name: 'Bench', hosts: [HOST] },
  { databasePrefix: prefix },
);
const databases = new TenantDatabases({ commerce: server, aplt: server }, { poolMax: 10 });
const aplt = databases.aplt((await registry.get('bench'))!);
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
let bare: Awaited<ReturnType<typeof bareJsonServer>> | undefined;
const keepAlive = new Agent({ keepAlive: true, maxSockets: CLIENTS });
try {
  console.log(`seeding ${N} quotations with 2 lines each ...`);
  const started = Date.now();
  await sql`INSERT INTO aplt_customers (customer_number, email, company, country)
  SELECT 'K' || lpad(g::text, 4, '0'), 'inkoop' || g || '@klant' || g || '.nl', 'Klant ' || g || ' BV', 'NL'
  FROM generate_series(1, 200) g`.execute(aplt);
  // Headers with their final numbers and totals (subtotal = the two lines, setup 45.00, franco:
  // free above 750.00 else 12.99, VAT 21 %), as createQuotation would store them.
  await sql`INSERT INTO aplt_quotation_headers (quotation_number, customer_id, status, source_code, quotation_date,
    valid_until, title, reference, customer_email, customer_company, subtotal, setup_cost_total, shipping_cost,
    vat_total, total, created_by)
  SELECT 'Q-2026-' || CASE WHEN g < 10000 THEN lpad(g::text, 4, '0') ELSE g::text END, c.id,
    (ARRAY['open', 'open', 'accepted', 'expired', 'rejected'])[1 + g % 5],
    (ARRAY['admin', 'manual', 'web', 'agent'])[1 + g % 4],
    DATE '2026-01-01' + (g % 300), DATE '2026-01-31' + (g % 300),
    'Relatiegeschenken ' || g, 'PO-' || g, c.email, c.company,
    s.sub, 45.00, s.ship, round((s.sub + 45.00 + s.ship) * 0.21, 2), round((s.sub + 45.00 + s.ship) * 1.21, 2), 'bench'
  FROM generate_series(1, ${N}) g
  JOIN aplt_customers c ON c.id = 1 + g % 200
  CROSS JOIN LATERAL (SELECT (100 + g % 400) * 1.25 + 50 * 0.80 AS sub) s0
  CROSS JOIN LATERAL (SELECT s0.sub, CASE WHEN s0.sub + 45.00 > 750 THEN 0 ELSE 12.99 END AS ship) s`.execute(
    aplt,
  );
  await sql`INSERT INTO aplt_quotation_lines (quotation_id, line_no, line_type, sku, description, quantity, unit_price,
    print_unit_price, print_colours, technique_code, technique_name, vat_rate, line_total)
  SELECT h.id, l.no, 'product', l.sku, l.description, l.qty, l.unit, l.print, l.colours, l.tech, l.tech_name, 21,
    round(l.qty * (l.unit + l.print), 2)
  FROM aplt_quotation_headers h
  CROSS JOIN LATERAL (VALUES
    (1, 'BM' || h.id || '-01', 'Balpen met logo', 100 + h.id % 400, 1.0500, 0.2000, 1, 'TAMPO', 'Tampondruk'),
    (2, 'MK' || h.id || '-02', 'Mok wit', 50, 0.8000, 0.0000, NULL::int, NULL, NULL)
  ) l(no, sku, description, qty, unit, print, colours, tech, tech_name)`.execute(aplt);
  await sql`INSERT INTO aplt_quotation_line_setup_costs (quotation_line_id, description, quantity, unit_cost, total, vat_rate)
  SELECT id, 'Cliché tampondruk', 1, 45.00, 45.00, 21 FROM aplt_quotation_lines WHERE line_no = 1`.execute(
    aplt,
  );
  await sql`INSERT INTO aplt_number_sequences (prefix, year, last_value) VALUES ('Q', 2026, ${N})
  ON CONFLICT (prefix, year) DO UPDATE SET last_value = EXCLUDED.last_value`.execute(aplt);
  await sql`VACUUM ANALYZE`.execute(aplt);
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  app = await buildApp(
    { registry, databases, licenses: allFeaturesClient },
    loadConfig({
      ...process.env,
      JWT_SECRET: secrets.JWT_SECRET,
      ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
      SERVICE_TOKEN: secrets.SERVICE_TOKEN,
      LOG_LEVEL: 'silent',
    }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const token = await signActorToken(
    tenantJwtSecret(secrets.JWT_SECRET, 'bench'),
    {
      actor_id: 'user_bench',
      actor_type: 'user',
      auth_identity_id: 'authid_bench',
      app_metadata: { user_id: 'user_bench' },
    },
    3600,
  );
  const headers = () => ({ ...proxyHeaders(HOST), authorization: `Bearer ${token}` });

  /** One GET as the proxy passes it on (node:http: fetch would replace the Host header). */
  function get(url: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      request(url, { headers: headers(), agent: keepAlive }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
  }

  /** `count` timed GETs from CLIENTS concurrent loops; latencies in ms, sorted. */
  async function timed(url: string, count: number): Promise<number[]> {
    const latencies: number[] = [];
    let left = count;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (left-- > 0) {
          const t0 = performance.now();
          const res = await get(url);
          latencies.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  }
  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

  const page1Url = `${base}/admin/aplt/quotations?limit=${PAGE_SIZE}&offset=0`;
  const first = await get(page1Url);
  if (first.status !== 200) throw new Error(`page 1 answered ${first.status}: ${first.body}`);
  const page1 = JSON.parse(first.body) as { count: number; data: Array<{ lines: unknown[] }> };
  if (page1.count !== N || page1.data.length !== PAGE_SIZE || page1.data[0]!.lines.length !== 2)
    throw new Error(`unexpected page 1: count ${page1.count}, ${page1.data.length} rows`);
  bare = await bareJsonServer(first.body);
  const cases = [
    { name: 'bare Fastify, page-1 JSON from memory (baseline)', url: bare.url },
    { name: 'GET /admin/aplt/quotations page 1', url: page1Url },
    {
      name: 'GET /admin/aplt/quotations page 200',
      url: `${base}/admin/aplt/quotations?limit=${PAGE_SIZE}&offset=${199 * PAGE_SIZE}`,
    },
    {
      name: 'page 1 filtered: status=open, q=klant 1',
      url: `${base}/admin/aplt/quotations?limit=${PAGE_SIZE}&offset=0&status=open&q=klant%201`,
    },
  ];
  console.log(
    `${N} quotations, ${PAGE_SIZE} per page, ${REQUESTS} timed requests per case from ${CLIENTS} concurrent clients`,
  );
  console.log(`${'case'.padEnd(52)}   p50 ms   p95 ms   p99 ms   req/s`);
  for (const c of cases) {
    await timed(c.url, Math.ceil(REQUESTS / 10));
    const t0 = performance.now();
    const l = await timed(c.url, REQUESTS);
    const rps = REQUESTS / ((performance.now() - t0) / 1000);
    console.log(
      `${c.name.padEnd(52)} ${pct(l, 50).toFixed(1).padStart(7)}  ${pct(l, 95).toFixed(1).padStart(7)}  ${pct(
        l,
        99,
      )
        .toFixed(1)
        .padStart(7)}  ${Math.round(rps).toString().padStart(6)}`,
    );
  }
  console.log('goal (issue #14): p95 < 100 ms at page 1 and page 200');
} finally {
  keepAlive.destroy();
  await app?.close();
  await bare?.close();
  await databases.close();
  await control.destroy();
  const names = tenantDatabaseNames('bench', prefix);
  for (const n of [names.commerce, names.aplt, controlName]) await dropPgDatabase(server, n);
}
