import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Server } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { freePort, httpRequest, launchChromium, uniqueName } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { pageCacheSettings, withPageCache } from '../server.mjs';
import { appDir, ensureStorefrontBuild } from './build';
import { relayFrom } from './relay';

const started: ChildProcess[] = [];

/** `node server.mjs` on the built app, outside the fleet, with its own page cache settings. */
async function startStorefront(
  env: Record<string, string>,
): Promise<{ port: number; child: ChildProcess; output: string[] }> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['server.mjs', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: appDir,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
  started.push(child); // stopped in afterAll even if it never says it listens
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`server.mjs exited (${code}): ${output.join('')}`));
    child.once('exit', onExit);
    child.stdout?.on('data', () => {
      if (output.join('').includes('"listening on')) {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return { port, child, output };
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * The page cache in front of Next (server.mjs) on the built app: the real fleet (start command's
 * path, Caddy with forward auth, gatekeeper on) for who may get a cached page, and server.mjs
 * processes of their own for its settings. Visitors are loopback addresses: 127.0.0.2 approved,
 * 127.0.0.3 pending, 127.0.0.4 rejected, 127.0.0.5 never asked.
 */
describe('storefront page cache (server.mjs)', () => {
  const prefix = `${uniqueName('pc')}_`;
  const visitors = {
    approved: '127.0.0.2',
    pending: '127.0.0.3',
    rejected: '127.0.0.4',
    unknown: '127.0.0.5',
  };
  let fx: FleetFixture;
  let proxyPort: number;
  let sku: string;

  /** A request through Caddy to acme's shop host from one visitor's address. */
  const shop = (
    from: string,
    path: string,
    opts: { method?: string; headers?: Record<string, string>; host?: string } = {},
  ) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, {
      host: opts.host ?? 'shop.acme.localhost',
      localAddress: from,
      method: opts.method ?? 'GET',
      headers: { accept: 'text/html', ...opts.headers },
    });
  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host: 'acme.localhost', ...opts });

  beforeAll(async () => {
    ensureStorefrontBuild();
    fx = await startFleetFixture(
      'master,acme',
      {
        NEXT_PUBLIC_GATEKEEPER_ENABLED: 'true',
        // Long enough that nothing in this file outlives an approval or a page by the clock.
        STOREFRONT_ACCESS_CACHE_SECONDS: '600',
        STOREFRONT_PAGE_CACHE_SECONDS: '600',
      },
      { prefix },
    );
    proxyPort = fx.proxyPort;

    // Three members of the public file access requests on the shop's access page, as people do.
    const chromium = await launchChromium();
    const relays: Server[] = [];
    try {
      for (const [who, from] of Object.entries(visitors)) {
        if (who === 'unknown') continue;
        const relay = await relayFrom(from, proxyPort);
        relays.push(relay.server);
        const context = await chromium.browser.createBrowserContext();
        const page = await context.newPage();
        await page.goto(`http://shop.acme.localhost:${relay.port}/toegang?lang=nl`);
        await page.waitForSelector('[data-testid=access-status][data-status=none]');
        await page.type('input[name=name]', `Visitor ${who}`);
        await page.type('input[name=company]', 'Visitor BV');
        await page.type('input[name=email]', `${who}-${prefix}@example.com`);
        await page.type('textarea[name=message]', 'Page cache test.');
        await page.click('.access-form button[type=submit]');
        await page.waitForSelector('[data-testid=access-status][data-status=pending]');
        await context.close();
      }
    } finally {
      await chromium.close();
      for (const r of relays) r.close();
    }
    const login = await api('/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    const auth = { authorization: `Bearer ${login.json().token}` };
    const list = await api('/admin/aplt/access-requests?status=pending', { headers: auth });
    expect(list.status, list.text()).toBe(200);
    const requests = list.json().access_requests as { id: string; email: string }[];
    for (const [who, status] of [
      ['approved', 'approved'],
      ['rejected', 'rejected'],
    ] as const) {
      const mine = requests.find((r) => r.email === `${who}-${prefix}@example.com`);
      expect(mine, list.text()).toBeDefined();
      const put = await api(`/admin/aplt/access-requests/${mine!.id}`, {
        method: 'PUT',
        headers: auth,
        body: { status },
      });
      expect(put.status, put.text()).toBe(200);
    }
    const products = await api('/store/aplt/products?lang=nl&limit=1&offset=0');
    expect(products.status, products.text()).toBe(200);
    sku = products.json().products[0].sku;
    expect(sku).toBeTruthy();
  }, 400_000);

  afterAll(async () => {
    for (const child of started) await stopProcess(child);
    await fx?.stop();
  }, 120_000);

  it('an approved anonymous visitor gets the catalog pages from the cache, the same bytes, also gzipped', async () => {
    const a = visitors.approved;
    // The server asks the gatekeeper first (nothing cached for this visitor yet), then renders.
    const miss = await shop(a, '/nl');
    expect(miss.status).toBe(200);
    expect(miss.headers['x-page-cache']).toBe('MISS');
    expect(miss.text()).toContain('product-card');
    const hit = await shop(a, '/nl');
    expect(hit.status).toBe(200);
    expect(hit.headers['x-page-cache']).toBe('HIT');
    expect(hit.text()).toBe(miss.text());
    expect(hit.headers['content-type']).toContain('text/html');
    expect(hit.headers['set-cookie']).toBeUndefined();
    // Browsers must not keep it: Next's own Cache-Control for a dynamic page goes along.
    expect(hit.headers['cache-control']).toContain('no-store');
    const gz = await shop(a, '/nl', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['x-page-cache']).toBe('HIT');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(miss.text());
    const head = await shop(a, '/nl', { method: 'HEAD' });
    expect(head.headers['x-page-cache']).toBe('HIT');
    expect(head.body.length).toBe(0);

    // Product and category pages too; every query is its own page.
    const product = `/nl/products/${encodeURIComponent(sku)}`;
    expect((await shop(a, product)).headers['x-page-cache']).toBe('MISS');
    const productHit = await shop(a, product);
    expect(productHit.headers['x-page-cache']).toBe('HIT');
    expect(productHit.text()).toContain(sku);
    expect((await shop(a, '/nl?page=2')).headers['x-page-cache']).toBe('MISS');
    expect((await shop(a, '/nl?q=pen')).headers['x-page-cache']).toBe('MISS');
    expect((await shop(a, '/en')).headers['x-page-cache']).toBe('MISS');
    expect((await shop(a, '/en')).text()).not.toBe(hit.text());
  });

  it('a pending, rejected or unknown visitor never gets a cached page, not even with a forged address', async () => {
    expect((await shop(visitors.approved, '/nl')).headers['x-page-cache']).toBe('HIT');
    for (const from of [visitors.pending, visitors.rejected, visitors.unknown]) {
      for (let i = 0; i < 2; i++) {
        const res = await shop(from, '/nl');
        expect(res.status, from).toBe(307);
        expect(res.headers.location).toBe('/toegang?lang=nl');
        expect(res.headers['x-page-cache']).toBe('BYPASS');
        // Nor the page inside the redirect: Next renders the page beside the layout that redirects,
        // and server.mjs sends a redirect without that body.
        expect(res.text()).not.toContain('product-card');
        expect(res.body.length).toBe(0);
      }
      // Nor through Next's router: an RSC request for the page (Next would render the page beside
      // the layout's redirect), nor a product page.
      const rsc = await shop(from, '/nl', { headers: { rsc: '1' } });
      expect(rsc.status).toBe(307);
      expect(rsc.headers.location).toBe('/toegang?lang=nl');
      expect(rsc.text()).not.toContain('product-card');
      const product = await shop(from, `/de/products/${encodeURIComponent(sku)}?_rsc=x`, {
        headers: { rsc: '1' },
      });
      expect(product.status).toBe(307);
      expect(product.headers.location).toBe('/toegang?lang=de');
      expect(product.text()).not.toContain(sku);
      // Claiming the approved visitor's address: the proxy appends the real one, which counts.
      const forged = await shop(from, '/nl', { headers: { 'x-forwarded-for': visitors.approved } });
      expect(forged.status, from).toBe(307);
      expect(forged.headers['x-page-cache']).toBe('BYPASS');
    }
    const toegang = await shop(visitors.pending, '/toegang?lang=nl');
    expect(toegang.text()).toContain('data-status="pending"');
    // Another tenant's shop is another page and another approval: the approved visitor of acme
    // is a stranger there.
    for (let i = 0; i < 2; i++) {
      const master = await shop(visitors.approved, '/nl', { host: 'shop.master.localhost' });
      expect(master.headers['x-page-cache']).not.toBe('HIT');
      expect(master.text()).not.toContain('product-card');
    }
  });

  it('a visitor with a session or cart cookie, and everything but a catalog page, goes to Next', async () => {
    const a = visitors.approved;
    expect((await shop(a, '/nl')).headers['x-page-cache']).toBe('HIT');
    for (const cookie of [
      '_commerce_jwt=x',
      '_commerce_cart_id=cart_x',
      'theme=dark; _commerce_cart_id=cart_x',
    ]) {
      const res = await shop(a, '/nl', { headers: { cookie } });
      expect(res.headers['x-page-cache'], cookie).toBe('BYPASS');
    }
    // Another cookie changes nothing the page shows.
    expect((await shop(a, '/nl', { headers: { cookie: 'theme=dark' } })).headers['x-page-cache']).toBe('HIT');
    for (const path of [
      '/nl/account',
      '/nl/account/login',
      '/nl/cart',
      '/toegang',
      '/healthz',
      '/nl/products',
    ]) {
      for (let i = 0; i < 2; i++) expect((await shop(a, path)).headers['x-page-cache'], path).toBe('BYPASS');
    }
    // Next's router requests (RSC payloads, prefetches) and anything but GET and HEAD.
    const rsc = await shop(a, '/nl', { headers: { rsc: '1' } });
    expect(rsc.headers['x-page-cache']).toBe('BYPASS');
    expect(rsc.headers['content-type']).toContain('text/x-component');
    expect((await shop(a, '/nl?_rsc=abc')).headers['x-page-cache']).toBe('BYPASS');
    const prefetch = await shop(a, '/nl', { headers: { rsc: '1', 'next-router-prefetch': '1' } });
    expect(prefetch.headers['x-page-cache']).toBe('BYPASS');
    expect((await shop(a, '/nl', { method: 'POST' })).headers['x-page-cache']).toBe('BYPASS');
    // Next's internal headers, which no browser sends, never share a stored page either way.
    const internal = await shop(a, '/nl', { headers: { 'x-middleware-subrequest': 'middleware' } });
    expect(internal.headers['x-page-cache']).toBe('BYPASS');
    // A page that does not exist is not stored.
    for (let i = 0; i < 2; i++) {
      const missing = await shop(a, '/nl/products/NO-SUCH-SKU-1');
      expect(missing.status).toBe(404);
      expect(missing.headers['x-page-cache']).toBe('MISS');
    }
  });

  it('STOREFRONT_PAGE_CACHE_SECONDS=0 turns it off; the entry bound drops the least recently used page', async () => {
    const common = {
      STORE_API_URL: `http://127.0.0.1:${proxyPort}`,
      PROXY_DOMAIN: 'localhost',
      NEXT_PUBLIC_GATEKEEPER_ENABLED: 'false',
      LOG_LEVEL: 'info',
    };
    const get = (port: number, path: string) =>
      httpRequest(`http://127.0.0.1:${port}${path}`, { host: 'shop.acme.localhost' });

    const off = await startStorefront({ ...common, STOREFRONT_PAGE_CACHE_SECONDS: '0' });
    for (let i = 0; i < 3; i++) {
      const res = await get(off.port, '/nl');
      expect(res.status).toBe(200);
      expect(res.text()).toContain('product-card');
      expect(res.headers['x-page-cache']).toBeUndefined();
    }
    await stopProcess(off.child);

    const two = await startStorefront({ ...common, STOREFRONT_PAGE_CACHE_MAX_ENTRIES: '2' });
    const states: string[] = [];
    for (const path of ['/nl', '/en', '/nl', '/de', '/en', '/de', '/nl'])
      states.push(`${path} ${String((await get(two.port, path)).headers['x-page-cache'])}`);
    // /de pushes out /en (least recently used), /en again pushes out /nl.
    expect(states).toEqual([
      '/nl MISS',
      '/en MISS',
      '/nl HIT',
      '/de MISS',
      '/en MISS',
      '/de HIT',
      '/nl MISS',
    ]);
    await stopProcess(two.child);

    // A page larger than a quarter of the byte bound is never stored.
    const small = await startStorefront({ ...common, STOREFRONT_PAGE_CACHE_MAX_BYTES: '20000' });
    for (let i = 0; i < 2; i++) expect((await get(small.port, '/nl')).headers['x-page-cache']).toBe('MISS');
    await stopProcess(small.child);
  }, 300_000);

  it('a bad setting stops the server with the variable named', async () => {
    const child = spawn(process.execPath, ['server.mjs', '--port', String(await freePort())], {
      cwd: appDir,
      env: { PATH: process.env.PATH, STOREFRONT_PAGE_CACHE_SECONDS: 'ten' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stderr.on('data', (c: Buffer) => (text += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(text).toContain('STOREFRONT_PAGE_CACHE_SECONDS');
    expect(() => pageCacheSettings({ STOREFRONT_PAGE_CACHE_MAX_ENTRIES: '-1' })).toThrow(
      'STOREFRONT_PAGE_CACHE_MAX_ENTRIES',
    );
    expect(pageCacheSettings({})).toMatchObject({ seconds: 10, gatekeeper: false });
  });
});

/**
 * The storing rules on answers the built app never gives on a catalog path (a Set-Cookie, JSON):
 * the same wrapper in front of a handler that gives them.
 */
describe('withPageCache storing rules', () => {
  let server: HttpServer;
  let port: number;
  let renders = 0;
  beforeAll(async () => {
    const { handle } = withPageCache(
      (req, res) => {
        renders++;
        if (req.url === '/nl/products/cookie') res.setHeader('set-cookie', 'seen=1; Path=/');
        if (req.url === '/nl/products/json') {
          res.setHeader('content-type', 'application/json');
          res.end('{}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<!doctype html><p>');
        res.end(`render ${renders}</p>`);
      },
      { seconds: 600, maxEntries: 10, maxBytes: 1 << 20, gatekeeper: false },
    );
    server = createHttpServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string) =>
    httpRequest(`http://127.0.0.1:${port}${path}`, { host: 'shop.acme.localhost' });

  it('never stores an answer that sets a cookie or is not HTML; stores one written with writeHead', async () => {
    for (const path of ['/nl/products/cookie', '/nl/products/json']) {
      const first = await get(path);
      const second = await get(path);
      expect([first.headers['x-page-cache'], second.headers['x-page-cache']], path).toEqual(['MISS', 'MISS']);
      if (path.endsWith('cookie')) expect(second.text()).not.toBe(first.text());
    }
    const first = await get('/nl/products/plain');
    const second = await get('/nl/products/plain');
    expect(first.headers['x-page-cache']).toBe('MISS');
    expect(second.headers['x-page-cache']).toBe('HIT');
    expect(second.text()).toBe(first.text());
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(second.headers.vary).toContain('Accept-Encoding');
  });
});
