// GET /store/aplt/products requests/s at 50 connections (catalog of 10,000 sellable products with
// variants, price tiers and categories; first page, a later page with a category filter and a
// search, all with the page cache off, then the first page with the default 10 s cache), beside a
// bare Fastify route that sends the same first-page JSON from memory. Every request, the
// baseline's too, carries what the proxy adds after forward auth: Host and the identity assertion.
//   npx tsx bench/catalog-store.ts
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon, { type Client } from 'autocannon';
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
import {
  allFeaturesClient,
  bareJsonServer,
  deleteRedisPrefix,
  proxyHeaders,
  secrets,
} from '../services/catalog/bench/fixture';
import { buildApp } from '@aplt/service-catalog/app';
import { loadConfig } from '@aplt/service-catalog/config';

const N = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = 50;
const HOST = 'shop.localhost';
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
  { id: 'shop', kind: 'tenant', name: 'Shop', hosts: ['shop.localhost'] },
  { databasePrefix: prefix },
);
const databases = new TenantDatabases({ commerce: server, aplt: server }, { poolMax: 10 });
const aplt = databases.aplt((await registry.get('shop'))!);

console.log(`seeding ${N} products ...`);
await sql`INSERT INTO aplt_suppliers (code, name) VALUES ('01', 'Bench')`.execute(aplt);
await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de) VALUES ('pens', 'pennen', 'Pennen', 'Pens', 'Kugelschreiber'), ('mugs', 'mokken', 'Mokken', 'Mugs', 'Becher')`.execute(
  aplt,
);
await sql`INSERT INTO aplt_products (sku, supplier_code, supplier_sku, name_nl, name_en, name_de, description_nl, brand, retail_price_100)
  SELECT 'BM' || g || '-01', '01', 'BM' || g, (CASE WHEN g % 2 = 0 THEN 'Balpen ' ELSE 'Mok ' END) || g,
    (CASE WHEN g % 2 = 0 THEN 'Pen ' ELSE 'Mug ' END) || g, (CASE WHEN g % 2 = 0 THEN 'Kugelschreiber ' ELSE 'Becher ' END) || g,
    'Relatiegeschenk ' || g, 'Bench', (0.4 + (g % 50) / 100.0)::numeric(14,4)
  FROM generate_series(1, ${N}) g`.execute(aplt);
await sql`INSERT INTO aplt_product_variants (product_id, sku, color_code, color_name)
  SELECT p.id, p.sku || '.' || c.code, c.code, c.name FROM aplt_products p CROSS JOIN (VALUES ('04', 'Blauw'), ('03', 'Zwart')) c(code, name)`.execute(
  aplt,
);
await sql`INSERT INTO aplt_product_prices (product_id, price_list, min_quantity, price)
  SELECT p.id, 'retail', q.m, p.retail_price_100 * q.f FROM aplt_products p CROSS JOIN (VALUES (1, 1.1), (100, 1.0), (500, 0.9)) q(m, f)`.execute(
  aplt,
);
await sql`INSERT INTO aplt_category_mappings (category_id, product_id)
  SELECT c.id, p.id FROM aplt_products p JOIN aplt_categories c ON c.code = CASE WHEN p.id % 2 = 0 THEN 'pens' ELSE 'mugs' END`.execute(
  aplt,
);
// Direct inserts, like any product writer, are followed by the search refresh (migration 0510).
await sql`SELECT aplt_refresh_product_search()`.execute(aplt);
await sql`VACUUM ANALYZE`.execute(aplt);

const config = (cacheSeconds: number) =>
  loadConfig({
    ...process.env,
    JWT_SECRET: secrets.JWT_SECRET,
    ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
    LOG_LEVEL: 'silent',
    REDIS_PREFIX: `${prefix}r`,
    CATALOG_STORE_CACHE_SECONDS: String(cacheSeconds),
  });
// Uncached: every request reaches the database. Cached: the default 10 s page cache.
const app = await buildApp({ registry, databases, licenses: allFeaturesClient }, config(0));
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const cachedApp = await buildApp({ registry, databases, licenses: allFeaturesClient }, config(10));
await cachedApp.listen({ port: 0, host: '127.0.0.1' });
const cachedBase = `http://127.0.0.1:${(cachedApp.server.address() as AddressInfo).port}`;

/**
 * autocannon at 50 connections for `duration` seconds. An assertion lives 60 s and the signer
 * renews it after 30 s, so every connection gets fresh headers every 10 s: any DURATION works.
 */
async function load(url: string, duration: number) {
  const clients: Client[] = [];
  const refresh = setInterval(() => {
    const headers = proxyHeaders(HOST);
    for (const client of clients) client.setHeaders(headers);
  }, 10_000);
  try {
    return await autocannon({
      url,
      headers: proxyHeaders(HOST),
      connections: CONNECTIONS,
      duration,
      setupClient: (client) => clients.push(client),
    });
  } finally {
    clearInterval(refresh);
  }
}

/** One GET as the proxy sends it (node:http: fetch would replace the Host header). */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: proxyHeaders(HOST) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

let bare: Awaited<ReturnType<typeof bareJsonServer>> | undefined;
try {
  const first = await get(`${base}/store/aplt/products?lang=nl&quantity=250`);
  if (first.status !== 200) throw new Error(`first page answered ${first.status}: ${first.body}`);
  const firstPage = first.body;
  bare = await bareJsonServer(firstPage);
  const bareUrl = bare.url;

  const cases = [
    { name: 'bare Fastify, same JSON from memory (baseline)', url: bareUrl },
    {
      name: 'GET /store/aplt/products?lang=nl&quantity=250',
      url: `${base}/store/aplt/products?lang=nl&quantity=250`,
    },
    {
      name: 'GET /store/aplt/products?category=pens&offset=2000&lang=de',
      url: `${base}/store/aplt/products?category=pens&offset=2000&lang=de`,
    },
    {
      name: 'GET /store/aplt/products?q=balpen%2012&lang=en',
      url: `${base}/store/aplt/products?q=balpen%2012&lang=en`,
    },
    {
      name: 'same first page with the 10 s page cache (default)',
      url: `${cachedBase}/store/aplt/products?lang=nl&quantity=250`,
    },
  ];
  const results: Array<{ name: string; rps: number; p99: number; errors: number }> = [];
  for (const c of cases) {
    await load(c.url, 1);
    const r = await load(c.url, DURATION);
    results.push({ name: c.name, rps: r.requests.average, p99: r.latency.p99, errors: r.non2xx + r.errors });
  }
  const baseline = results[0]!.rps;
  for (const r of results) {
    console.log(
      `${r.name.padEnd(62)} ${Math.round(r.rps).toString().padStart(7)} req/s  p99 ${r.p99} ms  ${((100 * r.rps) / baseline).toFixed(0)} % of baseline${r.errors ? `  (${r.errors} errors/non-2xx)` : ''}`,
    );
  }
} finally {
  await app.close();
  await cachedApp.close();
  await bare?.close();
  await databases.close();
  await control.destroy();
  const names = tenantDatabaseNames('shop', prefix);
  for (const n of [names.commerce, names.aplt, controlName]) await dropPgDatabase(server, n);
  await deleteRedisPrefix(config(0).REDIS_URL, `${prefix}r`);
}
