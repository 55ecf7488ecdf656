import { mkdirSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpRequest, launchChromium, uniqueName } from '@aplt/testing';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { ensureStorefrontBuild } from './build';
import { relayFrom } from './relay';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/storefront/', import.meta.url));

/**
 * The storefront of issue #15 as a visitor meets it: the real fleet (start command's path,
 * `next start` on the built app) behind Caddy with forward auth, Debian's Chromium on the shop
 * host `shop.acme.localhost`, the gatekeeper on, and staff deciding through the admin API.
 */
describe('storefront on the shop host through the proxy', () => {
  const prefix = `${uniqueName('sf')}_`;
  let fx: FleetFixture;
  let proxyPort: number;
  let relay: { port: number; server: Server };
  let relay3: { port: number; server: Server };
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let staffToken: string;
  const visitorEmail = `visitor-${prefix}@example.com`;

  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host: 'acme.localhost', ...opts });
  const shop = (path: string) => `http://shop.acme.localhost:${relay.port}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureStorefrontBuild();
    fx = await startFleetFixture(
      'master,acme',
      {
        // No visitor is whitelisted: the shop host is public at forward auth (ACCESS_SHOP_POLICY
        // default), the gatekeeper decides; 127.0.0.2-4 are members of the public.
        NEXT_PUBLIC_GATEKEEPER_ENABLED: 'true',
      },
      { prefix },
    );
    proxyPort = fx.proxyPort;
    relay = await relayFrom('127.0.0.2', proxyPort);
    relay3 = await relayFrom('127.0.0.3', proxyPort);
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const login = await api('/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    staffToken = login.json().token;
  }, 400_000);

  afterAll(async () => {
    await chromium?.close();
    relay?.server.close();
    relay3?.server.close();
    await fx?.stop();
  }, 120_000);

  it("forward auth: the shop host is open to the public, the tenant's backend host is not", async () => {
    const outsider = (host: string, path: string, accept: string) =>
      httpRequest(`http://127.0.0.1:${proxyPort}${path}`, {
        host,
        localAddress: '127.0.0.4',
        headers: { accept },
      });
    // The backend host still answers the access service's denial: JSON, or the denied page
    // with the visitor's address and the login link for a browser.
    const api = await outsider('acme.localhost', '/store/aplt/products', 'application/json');
    expect(api.status).toBe(401);
    expect(api.json()).toMatchObject({ type: 'unauthorized', ip: '127.0.0.4' });
    expect(api.json().login_url).toContain('/login');
    const admin = await outsider('acme.localhost', '/app', 'text/html');
    expect(admin.status).toBe(401);
    expect(admin.text()).toContain('127.0.0.4');
    // The same address reaches the shop's access page, and the shop sends it there.
    const toegang = await outsider('shop.acme.localhost', '/toegang', 'text/html');
    expect(toegang.status).toBe(200);
    expect(toegang.text()).toContain('data-status="none"');
    const shopPage = await outsider('shop.acme.localhost', '/nl', 'text/html');
    expect(shopPage.status).toBe(307);
    expect(shopPage.headers.location).toBe('/toegang?lang=nl');
    // A shop host of a tenant the registry does not know stays behind the usual rule.
    expect((await outsider('shop.nobody.localhost', '/toegang', 'application/json')).status).toBe(401);
    const health = await httpRequest(`http://127.0.0.1:${proxyPort}/healthz`, {
      host: 'shop.acme.localhost',
    });
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('gatekeeper: a visitor without access sees the access page, files a request and sees it pending', async () => {
    await page.goto(shop('/nl'));
    expect(new URL(page.url()).pathname).toBe('/toegang');
    await page.waitForSelector('[data-testid=access-status][data-status=none]');
    await page.type('input[name=name]', 'Vera Visitor');
    await page.type('input[name=company]', 'Visitor BV');
    await page.type('input[name=email]', visitorEmail);
    await page.type('textarea[name=message]', 'We order pens for our events.');
    await shot('01-access-request-form');
    await page.click('.access-form button[type=submit]');
    await page.waitForSelector('[data-testid=access-status][data-status=pending]');
    await shot('02-access-request-pending');
    // Still no shop while pending.
    await page.goto(shop('/nl'));
    expect(new URL(page.url()).pathname).toBe('/toegang');
  });

  it('staff approve the request in the admin API; the same visitor then browses without a new request', async () => {
    const list = await api('/admin/aplt/access-requests?status=pending', {
      headers: { authorization: `Bearer ${staffToken}` },
    });
    expect(list.status, list.text()).toBe(200);
    const mine = (list.json().access_requests as { id: string; email: string; ip_address?: string }[]).find(
      (r) => r.email === visitorEmail,
    );
    expect(mine, list.text()).toBeDefined();
    // Filed under the visitor's own address, not the storefront's or the proxy's.
    expect(mine!.ip_address).toBe('127.0.0.2');
    const put = await api(`/admin/aplt/access-requests/${mine!.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${staffToken}` },
      body: { status: 'approved' },
    });
    expect(put.status, put.text()).toBe(200);

    await page.goto(shop('/toegang'));
    await page.waitForSelector('[data-testid=access-status][data-status=approved]');
    await page.goto(shop('/nl'));
    expect(new URL(page.url()).pathname).toBe('/nl');
    await page.waitForSelector('.category-tree');
    await shot('03-shop-home');
  });

  it('a rejected visitor sees the rejection on the access page', async () => {
    // Another member of the public (127.0.0.3, its own browser context) files through the shop.
    const context = await chromium.browser.createBrowserContext();
    const rexEmail = `rex-${prefix}@example.com`;
    try {
      const rex = await context.newPage();
      await rex.goto(`http://shop.acme.localhost:${relay3.port}/en`);
      expect(new URL(rex.url()).pathname).toBe('/toegang');
      await rex.waitForSelector('[data-testid=access-status][data-status=none]');
      await rex.type('input[name=name]', 'Rex');
      await rex.type('input[name=company]', 'Rex BV');
      await rex.type('input[name=email]', rexEmail);
      await rex.type('textarea[name=message]', 'x');
      await rex.click('.access-form button[type=submit]');
      await rex.waitForSelector('[data-testid=access-status][data-status=pending]');
    } finally {
      await context.close();
    }
    const pending = await api('/admin/aplt/access-requests?status=pending', {
      headers: { authorization: `Bearer ${staffToken}` },
    });
    const filed = (pending.json().access_requests as { id: string; email: string }[]).find(
      (r) => r.email === rexEmail,
    );
    expect(filed, pending.text()).toBeDefined();
    const decided = await api(`/admin/aplt/access-requests/${filed!.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${staffToken}` },
      body: { status: 'rejected', reason: 'unknown company' },
    });
    expect(decided.status, decided.text()).toBe(200);
    const res = await httpRequest(`http://127.0.0.1:${proxyPort}/toegang?lang=en`, {
      host: 'shop.acme.localhost',
      localAddress: '127.0.0.3',
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(200);
    expect(res.text()).toContain('data-status="rejected"');
    expect(res.text()).toContain('Your request was rejected');
    // The shop itself sends that visitor back to the access page.
    const shopPage = await httpRequest(`http://127.0.0.1:${proxyPort}/en`, {
      host: 'shop.acme.localhost',
      localAddress: '127.0.0.3',
      headers: { accept: 'text/html' },
    });
    expect(shopPage.status).toBe(307);
    expect(shopPage.headers.location).toBe('/toegang?lang=en');
  });

  it('catalog: category tree -> category list -> product page with the tiered price at the chosen quantity', async () => {
    const categories = (await api('/store/aplt/categories?lang=nl')).json().categories as {
      slug: string;
      name: string;
      children: { slug: string; name: string }[];
    }[];
    const treeLinks = await page.$$eval('.category-tree a', (as) => as.map((a) => a.textContent?.trim()));
    for (const c of categories) expect(treeLinks).toContain(c.name);
    // A category that has products (with its children, as the API filters).
    let chosen: { slug: string; name: string; count: number } | undefined;
    for (const c of categories) {
      const count = (await api(`/store/aplt/products?category=${c.slug}&lang=nl&limit=1`)).json()
        .count as number;
      if (count > 0) {
        chosen = { slug: c.slug, name: c.name, count };
        break;
      }
    }
    expect(chosen, 'the demo catalog has a category with products').toBeDefined();
    await Promise.all([
      page.waitForNavigation(),
      page.click(`.category-tree a[href="/nl/categories/${chosen!.slug}"]`),
    ]);
    expect(await page.$eval('main h1', (h) => h.textContent)).toBe(chosen!.name);
    expect(await page.$eval('[data-testid=result-count]', (p) => p.textContent)).toBe(
      `${chosen!.count} producten`,
    );
    await shot('04-category');

    await Promise.all([page.waitForNavigation(), page.click('.product-card a')]);
    const sku = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const quantity = 500;
    await page.$eval('input[name=quantity]', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('input[name=quantity]', String(quantity));
    await Promise.all([page.waitForNavigation(), page.click('.quantity-form button')]);
    expect(new URL(page.url()).searchParams.get('quantity')).toBe(String(quantity));

    const priced = async (q: number) => {
      const body = (
        await api(`/store/aplt/products?sku=${encodeURIComponent(sku)}&lang=nl&quantity=${q}`)
      ).json();
      return (body.products as { price: { unit_price: string } }[])[0]!.price.unit_price;
    };
    const euro = (amount: string) =>
      new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(
        Number(amount),
      );
    const unit = await priced(quantity);
    expect(await page.$eval('[data-testid=unit-price]', (e) => e.textContent)).toBe(euro(unit));
    const tierRows = await page.$$eval('[data-testid=tiers] tbody tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(tierRows.length).toBeGreaterThanOrEqual(6);
    for (const [qty, price] of tierRows) expect(price, `tier ${qty}`).toBe(euro(await priced(Number(qty))));
    expect(await page.$eval('[data-testid=tiers] tr.current td', (td) => td.textContent)).toBe(
      String(quantity),
    );
    expect(await page.$$eval('[data-testid=variants] li', (li) => li.length)).toBeGreaterThan(0);
    await shot('05-product');
  });

  it('searches, pages and switches language', async () => {
    await page.goto(shop('/en'));
    expect(await page.$eval('main h1', (h) => h.textContent)).toBe('All products');
    const all = (await api('/store/aplt/products?lang=en&limit=1')).json().count as number;
    expect(await page.$eval('[data-testid=result-count]', (p) => p.textContent)).toBe(`${all} products`);
    // The demo catalog has more than one page of 12.
    expect(all).toBeGreaterThan(12);
    await Promise.all([page.waitForNavigation(), page.click('.pager a[rel=next]')]);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.$eval('.pager span', (s) => s.textContent)).toBe(`Page 2 of ${Math.ceil(all / 12)}`);
    expect(await page.$$eval('.product-card', (c) => c.length)).toBe(all - 12 > 12 ? 12 : all - 12);
    const found = (await api('/store/aplt/products?lang=de&q=kugelschreiber')).json() as {
      products: { name: string }[];
      count: number;
    };
    expect(found.count).toBeGreaterThan(0);
    await page.goto(shop('/de'));
    await page.type('.search input', 'kugelschreiber');
    await Promise.all([page.waitForNavigation(), page.click('.search button')]);
    const names = await page.$$eval('.product-card .name', (n) => n.map((x) => x.textContent));
    expect(names).toEqual(found.products.map((p) => p.name));
    expect(await page.$eval('[data-testid=result-count]', (p) => p.textContent)).toBe(
      `${found.count} Produkte`,
    );
    expect(await page.$eval('.langs a.active', (a) => a.textContent)).toBe('DE');
    await shot('06-search-de');
  });
});
