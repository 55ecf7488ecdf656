import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpRequest, launchChromium, uniqueName } from '@aplt/testing';
import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { ensureStorefrontBuild } from './build';
import { relayFrom } from './relay';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/storefront/', import.meta.url));

/**
 * sharp, as the image package of this repository resolves it (the storefront itself has no image
 * library; the test only draws its logo and photos with it).
 */
interface SharpImage {
  composite(layers: Array<{ input: Buffer; top: number; left: number }>): SharpImage;
  png(): SharpImage;
  jpeg(opts: { quality: number }): SharpImage;
  toBuffer(): Promise<Buffer>;
}
type Sharp = (opts: {
  create: { width: number; height: number; channels: 3 | 4; background: Record<string, number> };
}) => SharpImage;
const sharp = createRequire(fileURLToPath(new URL('../../../packages/images/package.json', import.meta.url)))(
  'sharp',
) as Sharp;

/** A canvas with coloured blocks drawn on it: a two-colour logo or a "damage" photo. */
async function drawn(
  width: number,
  height: number,
  background: Record<string, number>,
  blocks: Array<{ w: number; h: number; top: number; left: number; rgb: [number, number, number] }>,
  format: 'png' | 'jpeg',
): Promise<Buffer> {
  const layers = await Promise.all(
    blocks.map(async (b) => ({
      input: await sharp({
        create: {
          width: b.w,
          height: b.h,
          channels: 4,
          background: { r: b.rgb[0], g: b.rgb[1], b: b.rgb[2], alpha: 1 },
        },
      })
        .png()
        .toBuffer(),
      top: b.top,
      left: b.left,
    })),
  );
  const img = sharp({ create: { width, height, channels: 4, background } }).composite(layers);
  return (format === 'png' ? img.png() : img.jpeg({ quality: 85 })).toBuffer();
}

/** The text of a caught .eml: headers, quoted-printable soft breaks undone, base64 parts decoded. */
function mailText(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const b64 = [...raw.matchAll(/\r?\n\r?\n((?:[A-Za-z0-9+/=]{20,}\r?\n?)+)/g)]
    .map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'))
    .join('\n');
  return `${qp}\n${b64}`;
}

/**
 * Issue #15's "Done when" as one journey, the way a person follows the README: the real fleet
 * (start command's path, the demo seeds, `next start` on the built app) behind Caddy with forward
 * auth, Debian's Chromium on the demo shop host `shop.acme.localhost` as a member of the public
 * (127.0.0.2 through a relay, no whitelist), the gatekeeper on, the shop's features from the
 * seeded licence (no NEXT_PUBLIC_TENANT_FEATURES: the demo shop's licence has the logo
 * configurator), staff working through the admin API with the demo admin's token.
 *
 * access request -> staff approve -> category, search, product with techniques -> logo in the
 * modal -> configured line in the cart -> sign-up -> verification link from the caught e-mail ->
 * sign-in keeps the guest cart -> quotation request (web, the customer's) -> staff price it ->
 * customer accepts -> staff confirm, invoice, persist the PDF -> customer downloads the same bytes
 * -> return of two invoice lines with a JPEG and a PNG photo -> staff see the return.
 */
describe("issue #15's customer journey on the demo shop host, through the proxy", () => {
  const prefix = `${uniqueName('dw')}_`;
  let fx: FleetFixture;
  let proxyPort: number;
  let relay: { port: number; server: Server };
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let staffToken: string;
  let work: string;
  let mailDir: string;
  const output: string[] = [];
  const tag = prefix.replace(/_/g, '');
  const email = `journey-${tag}@example.com`;
  const password = 'Reis-Wachtwoord-2026';
  const SKU = '900-01';
  const PLAIN_SKU = '900-02';
  let quotation: { id: number; quotation_number: string };
  let orderNumber: string;
  let invoice: { id: number; invoice_number: string };
  let persistedPdf: Buffer;
  let returnNumber: string;

  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host: 'acme.localhost', ...opts });
  const staff = (method: string, path: string, body?: object) =>
    api(path, { method, headers: { authorization: `Bearer ${staffToken}` }, ...(body ? { body } : {}) });
  const shop = (path: string) => `http://shop.acme.localhost:${relay.port}${path}`;
  const shot = (name: string) =>
    page.screenshot({ path: join(SHOTS, `journey-${name}.png`), fullPage: true });
  const text = (selector: string) => page.$eval(selector, (e) => (e.textContent ?? '').trim());
  const path = () => new URL(page.url()).pathname;
  const euro = (amount: string | number) =>
    new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(
      Number(amount),
    );
  const cartLines = () =>
    page.$$eval('[data-testid=cart-line]', (lines) =>
      lines.map((l) => ({
        sku: l.getAttribute('data-sku'),
        configured: l.getAttribute('data-configured') === 'true',
        quantity: (l.querySelector('input[name=quantity]') as HTMLInputElement).value,
      })),
    );

  /** Waits for an element; on failure says what the page showed instead and the fleet's last lines. */
  async function waitFor(selector: string, timeout = 30_000) {
    try {
      return await page.waitForSelector(selector, { timeout });
    } catch (err) {
      const shown = await page.evaluate(
        () => document.querySelector('main')?.innerText ?? document.body.innerText,
      );
      throw new Error(
        `${(err as Error).message} at ${page.url()}\npage: ${shown.slice(0, 600)}\n${output.slice(-15).join('\n')}`,
      );
    }
  }

  async function fill(selector: string, value: string) {
    await page.$eval(selector, (e) => ((e as HTMLInputElement).value = ''));
    await page.type(selector, value);
  }

  /** The first caught message to the customer whose decoded text matches. */
  async function waitForMail(pattern: RegExp): Promise<RegExpMatchArray> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      for (const f of readdirSync(mailDir).sort()) {
        const body = mailText(readFileSync(join(mailDir, f), 'latin1'));
        if (!body.includes(email)) continue;
        const m = body.match(pattern);
        if (m) return m;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no mail to ${email} matching ${pattern}\n${output.slice(-20).join('\n')}`);
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureStorefrontBuild();
    fx = await startFleetFixture('master,acme', {
      // As in the demo: the gatekeeper on, nobody whitelisted, the features from the licence.
      NEXT_PUBLIC_GATEKEEPER_ENABLED: 'true',
      NEXT_PUBLIC_TENANT_FEATURES: '',
    });
    proxyPort = fx.proxyPort;
    work = fx.work;
    mailDir = fx.mailDir;
    relay = await relayFrom('127.0.0.2', proxyPort);
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    // A Dutch visitor: the e-mailed verification link (no language in it) opens in the browser's language.
    await page.setExtraHTTPHeaders({ 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    page.on('dialog', (d) => void d.accept());
    // What the browser saw goes with the fleet's lines into a failure's message.
    page.on('pageerror', (err) => output.push(`browser| ${(err as Error).message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') output.push(`browser console| ${m.text()}`);
    });
    page.setDefaultTimeout(45_000);
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
    await fx?.stop();
    if (fx) rmSync(fx.work, { recursive: true, force: true });
  }, 120_000);

  it('1. a visitor without access sees the access page and files a request', async () => {
    await page.goto(shop('/nl'));
    expect(path()).toBe('/toegang');
    await waitFor('[data-testid=access-status][data-status=none]');
    await page.type('input[name=name]', 'Rianne Reiziger');
    await page.type('input[name=company]', 'Reiziger Events BV');
    await page.type('input[name=email]', email);
    await page.type('textarea[name=message]', 'Wij bestellen bedrukte pennen voor onze beurzen.');
    await shot('01-access-request');
    await page.click('.access-form button[type=submit]');
    await waitFor('[data-testid=access-status][data-status=pending]');
    await shot('02-access-pending');
  });

  it('2. staff approve it in the admin API; the shop opens without a new request', async () => {
    const list = await staff('GET', '/admin/aplt/access-requests?status=pending');
    expect(list.status, list.text()).toBe(200);
    const mine = (list.json().access_requests as { id: string; email: string; ip_address?: string }[]).find(
      (r) => r.email === email,
    );
    expect(mine, list.text()).toBeDefined();
    expect(mine!.ip_address).toBe('127.0.0.2');
    const put = await staff('PUT', `/admin/aplt/access-requests/${mine!.id}`, { status: 'approved' });
    expect(put.status, put.text()).toBe(200);
    await page.goto(shop('/toegang'));
    await waitFor('[data-testid=access-status][data-status=approved]');
    await page.goto(shop('/nl'));
    expect(path()).toBe('/nl');
    await waitFor('.category-tree');
    await shot('03-shop-open');
  });

  it('3. browses: a category, a search, the product page with its print techniques', async () => {
    const categories = (await api('/store/aplt/categories?lang=nl')).json().categories as {
      slug: string;
      name: string;
    }[];
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
    expect(await text('main h1')).toBe(chosen!.name);
    expect(await text('[data-testid=result-count]')).toBe(`${chosen!.count} producten`);
    await shot('04-category');

    // Search for the configurable demo product by its name, as a visitor would.
    const product = (await api(`/store/aplt/products?sku=${SKU}&lang=nl`)).json().products[0] as {
      name: string;
    };
    const word = product.name.split(/\s+/).find((w) => w.length >= 4) ?? product.name;
    await page.type('.search input', word);
    await Promise.all([page.waitForNavigation(), page.click('.search button')]);
    const hits = await page.$$eval('.product-card a', (as) =>
      as.map((a) => decodeURIComponent(new URL((a as HTMLAnchorElement).href).pathname)),
    );
    expect(hits, `search for "${word}"`).toContain(`/nl/products/${SKU}`);
    await shot('05-search');

    await Promise.all([page.waitForNavigation(), page.click(`.product-card a[href="/nl/products/${SKU}"]`)]);
    expect(path()).toBe(`/nl/products/${SKU}`);
    await waitFor('[data-testid=techniques]');
    const techniques = await page.$$eval('[data-testid=techniques] tbody tr', (trs) =>
      trs.map((tr) => tr.getAttribute('data-technique')),
    );
    expect(techniques.sort()).toEqual(['TRANSFER', 'ZEEFDRUK']);
    expect(await page.$$eval('[data-testid=tiers] tbody tr', (r) => r.length)).toBeGreaterThan(0);
    // The demo shop's licence has the logo configurator: the button is there without any env list.
    await waitFor('[data-testid=customize]');
    await shot('06-product');
  });

  it('4. configures the product with a logo in the modal; the configured line is in the cart', async () => {
    const logo = join(work, 'reiziger-logo.png');
    writeFileSync(
      logo,
      await drawn(
        320,
        160,
        { r: 0, g: 0, b: 0, alpha: 0 },
        [
          { w: 280, h: 120, top: 20, left: 20, rgb: [20, 60, 170] },
          { w: 200, h: 30, top: 65, left: 60, rgb: [250, 200, 20] },
        ],
        'png',
      ),
    );
    await page.select('.add-to-cart select[name=variant]', `${SKU}.002`);
    await fill('.add-to-cart input[name=quantity]', '250');
    await page.click('[data-testid=customize]');
    const handle = await waitFor('iframe[data-testid=logo-modal]');
    const frame = (await handle!.contentFrame()) as Frame;
    await frame.waitForFunction(() => document.querySelectorAll('#technique option').length > 0, {
      timeout: 30_000,
    });
    expect(await frame.$eval('#quantity', (el) => (el as HTMLInputElement).value)).toBe('250');
    const input = await frame.waitForSelector('#logo-file');
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(logo);
    await frame.waitForFunction(
      () => !(document.getElementById('add-to-order') as HTMLButtonElement).disabled,
      { timeout: 30_000 },
    );
    await frame.select('#technique', 'ZEEFDRUK');
    await shot('07-logo-modal');
    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), frame.click('#add-to-order')]);
    expect(path()).toBe('/nl/cart');
    await waitFor('[data-testid=cart-line][data-configured=true]');
    await page.waitForFunction(
      () => {
        const img = document.querySelector('[data-testid=logo-screenshot]') as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      },
      { timeout: 30_000 },
    );
    expect(await text('[data-testid=configuration]')).toContain('Zeefdruk');
    // A plain line too, so the invoice has two lines to return.
    await page.goto(shop(`/nl/products/${PLAIN_SKU}`));
    await fill('.add-to-cart input[name=quantity]', '100');
    await page.click('[data-testid=add-to-cart]');
    await waitFor('[data-testid=added]');
    await page.goto(shop('/nl/cart'));
    expect(await cartLines()).toEqual([
      { sku: `${SKU}.002`, configured: true, quantity: '250' },
      { sku: expect.stringMatching(new RegExp(`^${PLAIN_SKU}`)), configured: false, quantity: '100' },
    ]);
    await shot('08-guest-cart');
  });

  it('5. signs up, verifies the e-mail from the caught message, signs in: the guest cart is still there', async () => {
    await page.goto(shop('/nl/account/register'));
    await waitFor('[data-testid=register-form]');
    await page.type('input[name=first_name]', 'Rianne');
    await page.type('input[name=last_name]', 'Reiziger');
    await page.type('input[name=company_name]', 'Reiziger Events BV');
    await page.type('input[name=email]', email);
    await page.type('input[name=password]', password);
    await shot('09-register');
    await page.click('[data-testid=register-form] button[type=submit]');
    await waitFor('[data-testid=check-email]');
    expect(path()).toBe('/nl/account/register/check-email');

    // In Dutch, the page's language, and the link says so.
    await waitForMail(/Welkom! Bevestig uw e-mailadres/);
    const [link] = await waitForMail(/http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+&lang=nl/);
    // The registry's store_base_url is the shop host on the proxy's port; the visitor opens it
    // through the same relay (the same address, so the gatekeeper still lets it in).
    const verify = new URL(link!);
    expect(verify.hostname).toBe('shop.acme.localhost');
    expect(verify.port).toBe(String(proxyPort));
    await page.goto(shop(`${verify.pathname}${verify.search}`));
    await waitFor('[data-testid=verified]');
    expect(path()).toBe('/nl/account/verify');
    expect(await text('[data-testid=verified]')).toContain(email);
    await shot('10-verified');

    await page.goto(shop('/nl/account/login'));
    await fill('[data-testid=login-form] input[name=email]', email);
    await fill('[data-testid=login-form] input[name=password]', password);
    await page.click('[data-testid=login-form] button[type=submit]');
    await waitFor('[data-testid=account]');
    expect(path()).toBe('/nl/account');
    await shot('11-signed-in');

    await page.goto(shop('/nl/cart'));
    await waitFor('[data-testid=cart-line][data-configured=true]');
    expect((await cartLines()).map((l) => [l.sku, l.configured, l.quantity])).toEqual([
      [`${SKU}.002`, true, '250'],
      [expect.stringMatching(new RegExp(`^${PLAIN_SKU}`)), false, '100'],
    ]);
    // The cart is now the customer's: the store API gives it to their token.
    expect(await page.$eval('.quote-form input[name=email]', (i) => (i as HTMLInputElement).value)).toBe(
      email,
    );
    await shot('12-cart-after-sign-in');
  });

  it('6. turns the cart into a quotation: source web, addressed to the signed-in customer', async () => {
    await page.type('.quote-form textarea[name=remark]', 'Logo graag in blauw en geel.');
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=request-quote]')]);
    expect(path()).toBe('/nl/cart/confirmed');
    const number = await text('[data-testid=quotation-number]');
    expect(number).toMatch(/^Q-\d{4}-\d{4,}$/);
    await shot('13-quotation-requested');
    const list = await staff('GET', `/admin/aplt/quotations?q=${encodeURIComponent(number)}`);
    expect(list.status, list.text()).toBe(200);
    const found = (list.json().data as { id: number; quotation_number: string }[]).find(
      (q) => q.quotation_number === number,
    );
    expect(found, list.text()).toBeDefined();
    quotation = { id: Number(found!.id), quotation_number: number };
    const q = (await staff('GET', `/admin/aplt/quotations/${quotation.id}`)).json();
    expect(q).toMatchObject({
      source_code: 'web',
      status: 'open',
      customer_email: email,
      customer_name: 'Rianne Reiziger',
      customer_company: 'Reiziger Events BV',
      notes: 'Logo graag in blauw en geel.',
    });
    const configured = q.lines.find((l: { logo_transaction_id: string | null }) => l.logo_transaction_id);
    expect(configured).toMatchObject({ sku: `${SKU}.002`, quantity: 250, technique_code: 'ZEEFDRUK' });
    // The customer's: it is in their "my quotations".
    await page.goto(shop('/nl/account/quotations'));
    await waitFor('[data-testid=quotation-list]');
    expect(await text('[data-testid=quotation-list] tbody')).toContain(number);
  });

  let pricedTotal: string;
  let printUnit: string;
  it('7. staff price it in the admin API (the customer record the request made, their unit prices)', async () => {
    const q = (await staff('GET', `/admin/aplt/quotations/${quotation.id}`)).json();
    // The signed-in request named the customer record it made from the shop account.
    expect(q.customer_id, JSON.stringify(q)).not.toBeNull();
    const customer = (await staff('GET', `/admin/aplt/customers/${q.customer_id}`)).json();
    expect(customer).toMatchObject({
      email,
      first_name: 'Rianne',
      last_name: 'Reiziger',
      company: 'Reiziger Events BV',
    });
    type Line = Record<string, unknown> & { line_type: string; unit_price: string };
    const keep = [
      'line_type',
      'product_id',
      'sku',
      'description',
      'quantity',
      'technique_id',
      'print_position',
      'print_area',
      'print_colours',
      'print_unit_price',
      'vat_rate',
      'logo_transaction_id',
      'metadata',
    ];
    const staffPrice = { [`${SKU}.002`]: '1.25' } as Record<string, string>;
    const lines = (q.lines as Line[])
      .filter((l) => l.line_type !== 'setup')
      .map((l) => {
        const out: Record<string, unknown> = {};
        for (const k of keep) if (l[k] !== null && l[k] !== undefined) out[k] = l[k];
        for (const k of ['product_id', 'technique_id']) if (out[k] !== undefined) out[k] = Number(out[k]);
        out.unit_price = staffPrice[l.sku as string] ?? l.unit_price;
        return out;
      });
    const put = await staff('PUT', `/admin/aplt/quotations/${quotation.id}`, { lines });
    expect(put.status, put.text()).toBe(200);
    const priced = put.json();
    expect(priced).toMatchObject({ status: 'open', customer_id: q.customer_id });
    const mine = priced.lines.find((l: { sku: string }) => l.sku === `${SKU}.002`);
    expect(mine.unit_price).toMatch(/^1\.25/);
    expect(Number(mine.print_unit_price)).toBeGreaterThan(0);
    printUnit = String(mine.print_unit_price);
    pricedTotal = String(priced.total);
  });

  it('8. the customer accepts it in "my quotations"', async () => {
    await page.goto(shop(`/nl/account/quotations/${quotation.id}`));
    await waitFor('[data-testid=accept-form]');
    // Intl puts a no-break space after the euro sign; compare the words, not the kind of space.
    const spaced = (t: string) => t.replace(/\s+/g, ' ');
    expect(spaced(await text('.doc-table tfoot'))).toContain(`Totaal${spaced(euro(pricedTotal))}`);
    // The configured line says what printing adds per piece, so its total follows from what is shown.
    expect(spaced(await text('[data-testid=line-print-price]'))).toBe(
      `Bedrukking per stuk ${spaced(euro(printUnit))}`,
    );
    await shot('14-quotation-priced');
    await page.click('[data-testid=accept-form] button[type=submit]');
    await waitFor('[data-testid=quote-notice]');
    const accepted = (await text('[data-testid=quote-notice]')).match(/Uw bestelling is (O-\d{4}-\d{4,})/);
    expect(accepted, await text('[data-testid=quote-notice]')).not.toBeNull();
    orderNumber = accepted![1]!;
    expect(await text('h1 .status-badge')).toBe('Geaccepteerd');
    await shot('15-quotation-accepted');
  });

  it('9. staff confirm the order, invoice it and persist the invoice PDF', async () => {
    const orders = (await staff('GET', '/admin/aplt/orders?limit=50')).json();
    const order = (orders.data as { id: number | string; order_number: string; status: string }[]).find(
      (o) => o.order_number === orderNumber,
    );
    expect(order, JSON.stringify(orders).slice(0, 500)).toBeDefined();
    const orderId = Number(order!.id);
    if (order!.status !== 'confirmed') {
      const confirmed = await staff('POST', '/admin/aplt/orders/status', {
        id: orderId,
        status: 'confirmed',
      });
      expect(confirmed.status, confirmed.text()).toBe(200);
    }
    expect((await staff('GET', `/admin/aplt/orders/${orderId}`)).json()).toMatchObject({
      status: 'confirmed',
    });
    const inv = await staff('POST', '/admin/aplt/invoices', { order_id: orderId });
    expect(inv.status, inv.text()).toBe(201);
    invoice = { id: Number(inv.json().id), invoice_number: inv.json().invoice_number };
    // The first render is persisted; every later read serves those bytes.
    const first = await staff('GET', `/admin/aplt/invoices/pdf?id=${invoice.id}`);
    expect(first.status, first.text()).toBe(200);
    expect(first.body.subarray(0, 5).toString()).toBe('%PDF-');
    const again = await staff('GET', `/admin/aplt/invoices/pdf?id=${invoice.id}`);
    expect(again.body.equals(first.body)).toBe(true);
    persistedPdf = first.body;
    const record = (await staff('GET', `/admin/aplt/invoices/${invoice.id}`)).json();
    const digest = record.pdf_sha256 ?? record.pdf?.sha256;
    if (digest !== undefined) expect(digest).toBe(createHash('sha256').update(persistedPdf).digest('hex'));
  });

  it('10. the customer downloads the invoice PDF in "my invoices": the persisted bytes', async () => {
    await page.goto(shop('/nl/account/invoices'));
    await waitFor('[data-testid=invoice-list]');
    expect(await text('[data-testid=invoice-list] tbody')).toContain(invoice.invoice_number);
    await shot('16-my-invoices');
    const href = await page.$eval('[data-testid=invoice-pdf]', (a) => (a as HTMLAnchorElement).href);
    const downloaded = await page.evaluate(async (url) => {
      const res = await fetch(url);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        disposition: res.headers.get('content-disposition'),
        b64: btoa(bin),
      };
    }, href);
    expect(downloaded.status).toBe(200);
    expect(downloaded.type).toBe('application/pdf');
    expect(Buffer.from(downloaded.b64, 'base64').equals(persistedPdf)).toBe(true);
    expect(downloaded.disposition).toMatch(/filename="[^"]+\.pdf"/);
    // And as a person does it: a click on the link saves the file.
    const downloads = mkdtempSync(join(work, 'downloads-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.click('[data-testid=invoice-pdf]');
    const deadline = Date.now() + 30_000;
    let saved: string[] = [];
    while (Date.now() < deadline) {
      saved = readdirSync(downloads).filter((f) => !f.endsWith('.crdownload'));
      if (saved.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(saved, 'the downloaded invoice').toHaveLength(1);
    expect(saved[0]).toMatch(/\.pdf$/);
    expect(readFileSync(join(downloads, saved[0]!)).equals(persistedPdf)).toBe(true);
    await cdp.detach();
  });

  it('11. files a return of two invoice lines with a JPEG and a PNG photo', async () => {
    const jpeg = join(work, 'kras-op-pen.jpg');
    const pngPhoto = join(work, 'verkeerde-kleur.png');
    writeFileSync(
      jpeg,
      await drawn(
        640,
        480,
        { r: 230, g: 230, b: 225, alpha: 1 },
        [
          { w: 420, h: 60, top: 210, left: 110, rgb: [30, 60, 160] },
          { w: 140, h: 8, top: 236, left: 240, rgb: [200, 30, 30] },
        ],
        'jpeg',
      ),
    );
    writeFileSync(
      pngPhoto,
      await drawn(
        480,
        640,
        { r: 250, g: 250, b: 250, alpha: 1 },
        [{ w: 80, h: 400, top: 120, left: 200, rgb: [20, 140, 60] }],
        'png',
      ),
    );
    expect(
      readFileSync(jpeg)
        .subarray(0, 3)
        .equals(Buffer.from([0xff, 0xd8, 0xff])),
    ).toBe(true);
    await page.goto(shop('/nl/account/returns'));
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=new-return]')]);
    await waitFor('[data-testid=choose-invoice]');
    await page.select('[data-testid=choose-invoice] select', String(invoice.id));
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=choose-invoice] button')]);
    await waitFor('[data-testid=return-form]');
    const lineIds = await page.$$eval('[data-testid=return-form] tr[data-line]', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.line!),
    );
    expect(lineIds.length).toBeGreaterThanOrEqual(2);
    const [first, second] = lineIds as [string, string];
    await fill(`input[name=qty_${first}]`, '10');
    await page.select(`select[name=reason_${first}]`, 'damaged');
    await fill(`input[name=qty_${second}]`, '5');
    await page.select(`select[name=reason_${second}]`, 'wrong_product');
    const input = (await page.$('[data-testid=return-form] input[type=file]'))!;
    await input.uploadFile(jpeg, pngPhoto);
    await page.type(
      '[data-testid=return-form] textarea[name=remark]',
      'Tien pennen bekrast, vijf in de verkeerde kleur.',
    );
    await shot('18-return-form');
    await page.click('[data-testid=return-form] button[type=submit]');
    await waitFor('[data-testid=return-filed]');
    expect(path()).toBe('/nl/account/returns');
    const filed = (await text('[data-testid=return-filed]')).match(/Retour (R-\d{4}-\d{4,}) is aangemeld/);
    expect(filed).not.toBeNull();
    returnNumber = filed![1]!;
    const card = '[data-testid=return-list] .return-card';
    await page.waitForFunction(
      (sel) => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>(`${sel} .photos img`)];
        return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
      },
      {},
      card,
    );
    expect(await text(card)).toContain(returnNumber);
    await shot('19-return-filed');
  });

  it('12. staff see the return in the admin API, with its lines and both photos', async () => {
    const list = await staff('GET', `/admin/aplt/returns?q=${encodeURIComponent(returnNumber)}`);
    expect(list.status, list.text()).toBe(200);
    const found = (list.json().data as { id: number; return_number: string }[]).find(
      (r) => r.return_number === returnNumber,
    );
    expect(found, list.text()).toBeDefined();
    const one = await staff('GET', `/admin/aplt/returns/${found!.id}`);
    expect(one.status, one.text()).toBe(200);
    const r = one.json();
    expect(r).toMatchObject({
      return_number: returnNumber,
      status: 'requested',
      invoice_id: invoice.id,
      customer_email: email,
    });
    expect(r.lines.map((l: { quantity: number; reason: string }) => [l.quantity, l.reason]).sort()).toEqual(
      [
        [10, 'damaged'],
        [5, 'wrong_product'],
      ].sort(),
    );
    expect(r.photos.map((p: { content_type: string }) => p.content_type).sort()).toEqual([
      'image/jpeg',
      'image/png',
    ]);
    // Staff were told by e-mail too.
    const staffMail = readdirSync(mailDir)
      .map((f) => mailText(readFileSync(join(mailDir, f), 'latin1')))
      .find((m) => m.includes(returnNumber) && !m.includes(`To: ${email}`));
    expect(staffMail, 'the staff e-mail about the return').toBeDefined();
  });
});
