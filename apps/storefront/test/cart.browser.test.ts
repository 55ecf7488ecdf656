import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { httpRequest, launchChromium, uniqueName } from '@aplt/testing';
import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { ensureStorefrontBuild } from './build';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/storefront/', import.meta.url));

/** A real PNG (RGBA, a red badge with a white bar on transparency), built by hand: no image library here. */
function logoPng(width = 160, height = 80): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 4 + 1) + 1 + x * 4;
      const inside = x > 8 && x < width - 8 && y > 8 && y < height - 8;
      const bar = inside && y > height / 2 - 6 && y < height / 2 + 6 && x > 24 && x < width - 24;
      const [r, g, b, a] = !inside ? [0, 0, 0, 0] : bar ? [255, 255, 255, 255] : [200, 30, 30, 255];
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Cart, logo configurator and quotation request of issue #15 in Debian's Chromium, through the
 * real fleet and Caddy on the shop host: the product page's print techniques equal the store
 * API's; a plain line; "Customize with your logo" opens the real modal (served on the shop
 * host), a PNG is uploaded and ordered, and the configured line with its screenshot and proof
 * link is in the cart; cancel changes nothing; a guest requests a quotation and the admin API
 * shows it with source web.
 */
describe('storefront cart and logo configurator through the proxy', () => {
  const prefix = `${uniqueName('sc')}_`;
  let fx: FleetFixture;
  let proxyPort: number;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let staffToken: string;
  let logoPath: string;
  const SKU = '900-01';

  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host: 'acme.localhost', ...opts });
  const staff = (path: string) => api(path, { headers: { authorization: `Bearer ${staffToken}` } });
  const shop = (path: string) => `http://shop.acme.localhost:${proxyPort}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const euro = (amount: string) =>
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

  async function openModal(): Promise<Frame> {
    await page.click('[data-testid=customize]');
    const handle = await page.waitForSelector('iframe[data-testid=logo-modal]', { timeout: 30_000 });
    const frame = await handle!.contentFrame();
    if (!frame) throw new Error('modal frame missing');
    await frame.waitForFunction(() => document.querySelectorAll('#technique option').length > 0, {
      timeout: 30_000,
    });
    return frame;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureStorefrontBuild();
    const work = mkdtempSync(join(tmpdir(), 'storefront-cart-'));
    logoPath = join(work, 'company-logo.png');
    writeFileSync(logoPath, logoPng());
    fx = await startFleetFixture('master,acme', {
      // The gatekeeper is the storefront test's subject; here the shop is open.
      NEXT_PUBLIC_GATEKEEPER_ENABLED: 'false',
      // Spec 2's first source of the shop's features: the demo licence keeps the add-ons (the
      // logo configurator's designer_external among them) off until staff enable one.
      NEXT_PUBLIC_TENANT_FEATURES: 'products,quotations,orders,invoices,designer_external',
    });
    proxyPort = fx.proxyPort;
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
    await fx?.stop();
  }, 120_000);

  it("the product page shows the product's print techniques with the API's positions and prices", async () => {
    const quantity = 250;
    await page.goto(shop(`/nl/products/${SKU}?quantity=${quantity}`));
    await page.waitForSelector('[data-testid=techniques]');
    const body = (await api(`/store/aplt/products?sku=${SKU}&lang=nl&quantity=${quantity}`)).json();
    const techniques = body.products[0].print_techniques as Array<{
      code: string;
      positions: { code: string }[];
      setup_cost: string | null;
      prices: { min_quantity: number; colours: number | null; price_per_unit: string }[];
    }>;
    expect(techniques.map((t) => t.code).sort()).toEqual(['TRANSFER', 'ZEEFDRUK']);
    const rows = await page.$$eval('[data-testid=techniques] tbody tr', (trs) =>
      trs.map((tr) => ({
        code: tr.getAttribute('data-technique'),
        positions: [...tr.querySelectorAll('[data-position]')].map((p) => p.getAttribute('data-position')),
        price: tr.querySelector('[data-testid=technique-price]')?.firstChild?.textContent,
        setup: tr.querySelector('[data-testid=technique-setup]')?.firstChild?.textContent,
      })),
    );
    expect(rows.map((r) => r.code)).toEqual(techniques.map((t) => t.code));
    for (const t of techniques) {
      const row = rows.find((r) => r.code === t.code)!;
      expect(row.positions).toEqual(t.positions.map((p) => p.code));
      const scale = t.prices
        .filter((p) => p.min_quantity <= quantity)
        .sort((a, b) => b.min_quantity - a.min_quantity)[0]!;
      expect(row.price, t.code).toBe(euro(scale.price_per_unit));
      expect(row.setup, t.code).toBe(euro(t.setup_cost!));
    }
    expect(await page.$('[data-testid=customize]')).not.toBeNull();
    await shot('cart-01-product-techniques');
  });

  it('adds a plain line in the chosen colour', async () => {
    await page.select('.add-to-cart select[name=variant]', '900-01.002');
    await page.$eval('.add-to-cart input[name=quantity]', (i) => ((i as HTMLInputElement).value = ''));
    await page.type('.add-to-cart input[name=quantity]', '250');
    await page.click('[data-testid=add-to-cart]');
    await page.waitForSelector('[data-testid=added]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=cart-count]')?.textContent === '1',
      { timeout: 15_000 },
    );
  });

  it('customizes with a logo: the configured line with its screenshot and proof is in the cart', async () => {
    const frame = await openModal();
    // The modal got the shop's parameters.
    expect(await frame.$eval('#quantity', (el) => (el as HTMLInputElement).value)).toBe('250');
    expect(await frame.$eval('#variant', (el) => (el as HTMLSelectElement).value)).toBe('900-01.002');
    const input = await frame.waitForSelector('#logo-file');
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(logoPath);
    await frame.waitForFunction(
      () => !(document.getElementById('add-to-order') as HTMLButtonElement).disabled,
      { timeout: 30_000 },
    );
    await frame.select('#technique', 'ZEEFDRUK');
    await shot('cart-02-logo-modal');
    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), frame.click('#add-to-order')]);
    expect(new URL(page.url()).pathname).toBe('/nl/cart');
    expect(await page.$('iframe[data-testid=logo-modal]')).toBeNull();
    await page.waitForSelector('[data-testid=cart-line][data-configured=true]');
    expect(await cartLines()).toEqual([
      { sku: '900-01.002', configured: false, quantity: '250' },
      { sku: '900-01.002', configured: true, quantity: '250' },
    ]);
    // The screenshot is the modal's, on the shop host, and it loads; the proof link is the transaction's PDF.
    await page.waitForFunction(
      () => {
        const img = document.querySelector('[data-testid=logo-screenshot]') as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      },
      { timeout: 30_000 },
    );
    const src = await page.$eval('[data-testid=logo-screenshot]', (i) => (i as HTMLImageElement).src);
    const proof = await page.$eval('[data-testid=proof-link]', (a) => (a as HTMLAnchorElement).href);
    const id = /\/api\/transactions\/([0-9a-f-]{36})\/screenshot$/.exec(new URL(src).pathname)?.[1];
    expect(id, src).toBeDefined();
    expect(new URL(src).host).toBe(`shop.acme.localhost:${proxyPort}`);
    expect(new URL(proof).pathname).toBe(`/api/transactions/${id}/pdf`);
    const pdf = await httpRequest(`http://127.0.0.1:${proxyPort}/api/transactions/${id}/pdf`, {
      host: 'modal.localhost',
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(await page.$eval('[data-testid=configuration]', (c) => c.textContent)).toContain('Zeefdruk');
    // The subtotal equals the API's cart total (decimal strings, shown in euros).
    const lineTotals = await page.$$eval('[data-testid=line-total]', (t) => t.map((x) => x.textContent));
    expect(lineTotals.every((t) => t && t.startsWith('€'))).toBe(true);
    await shot('cart-03-cart-with-logo');
  });

  it('cancel in the modal leaves the cart as it was', async () => {
    await page.goto(shop(`/nl/products/${SKU}`));
    const frame = await openModal();
    await frame.click('#cancel');
    await page.waitForFunction(() => !document.querySelector('iframe[data-testid=logo-modal]'), {
      timeout: 15_000,
    });
    expect(new URL(page.url()).pathname).toBe(`/nl/products/${SKU}`);
    expect(await page.$eval('[data-testid=cart-count]', (c) => c.textContent)).toBe('2');
    await page.goto(shop('/nl/cart'));
    expect((await cartLines()).length).toBe(2);
  });

  it('changes a quantity and removes a line on the cart page', async () => {
    const plain = '[data-testid=cart-line][data-configured=false]';
    await page.$eval(`${plain} input[name=quantity]`, (i) => ((i as HTMLInputElement).value = ''));
    await page.type(`${plain} input[name=quantity]`, '500');
    await page.click(`${plain} .line-quantity button`);
    await page.waitForFunction(
      (sel) =>
        (document.querySelector(`${sel} input[name=quantity]`) as HTMLInputElement)?.defaultValue === '500',
      { timeout: 15_000 },
      plain,
    );
    await page.click(`${plain} [data-testid=remove-line]`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=cart-line]').length === 1, {
      timeout: 15_000,
    });
    expect(await cartLines()).toEqual([{ sku: '900-01.002', configured: true, quantity: '250' }]);
    // Back with a plain line for the quotation.
    await page.goto(shop('/nl/products/900-02'));
    await page.click('[data-testid=add-to-cart]');
    await page.waitForSelector('[data-testid=added]');
    await page.goto(shop('/nl/cart'));
    expect((await cartLines()).length).toBe(2);
  });

  it('a guest requests a quotation: the confirmation shows its number, the admin sees it with source web', async () => {
    await page.type('.quote-form input[name=name]', 'Gijs Gast');
    await page.type('.quote-form input[name=email]', `gijs-${prefix}@example.com`);
    await page.type('.quote-form input[name=company]', 'Gast BV');
    await page.type('.quote-form textarea[name=remark]', 'Logo in rood graag');
    await shot('cart-04-quote-form');
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=request-quote]')]);
    expect(new URL(page.url()).pathname).toBe('/nl/cart/confirmed');
    const number = await page.$eval('[data-testid=quotation-number]', (n) => n.textContent);
    expect(number).toMatch(/^Q-\d{4}-\d{4,}$/);
    await shot('cart-05-quote-confirmed');

    const list = await staff(`/admin/aplt/quotations?q=${encodeURIComponent(number!)}`);
    expect(list.status, list.text()).toBe(200);
    const found = list.json().data.find((q: { quotation_number: string }) => q.quotation_number === number);
    expect(found).toBeDefined();
    const q = (await staff(`/admin/aplt/quotations/${found.id}`)).json();
    expect(q).toMatchObject({
      source_code: 'web',
      customer_name: 'Gijs Gast',
      customer_company: 'Gast BV',
      customer_email: `gijs-${prefix}@example.com`,
      notes: 'Logo in rood graag',
      status: 'open',
    });
    const configured = q.lines.find((l: { logo_transaction_id: string | null }) => l.logo_transaction_id);
    expect(configured).toMatchObject({ sku: '900-01.002', quantity: 250, technique_code: 'ZEEFDRUK' });
    expect(q.lines.map((l: { sku: string }) => l.sku).sort()).toEqual(['900-01.002', '900-02']);

    // The cart is done: the header has no count, the cart page is empty.
    await page.goto(shop('/nl/cart'));
    await page.waitForSelector('[data-testid=cart-empty]');
    expect(await page.$('[data-testid=cart-count]')).toBeNull();
  });
});
