import { createHmac } from 'node:crypto';
import { readFile, mkdtemp, rm, writeFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpRequest, startHttpReceiver, type HttpReceiver, testSecrets } from '@aplt/testing';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes, launchChromium, openModalFrom, uploadLogo, waitForEvents } from './browser';
import { type ModalHarness, startHarness, vectorLogo } from './helpers';

/** The demo shop page keeps every message it receives (see its script below). */
type DemoShopWindow = Window & { demoEvents: DemoEvent[] };
/** A message to the shop, as the modal posts it. */
interface DemoEvent {
  type: string;
  transactionId: string;
  basketId: string;
  logoConfig: { x: number } & Record<string, unknown>;
}

const publicDir = new URL('../public/demo-shop/', import.meta.url);

/** The webshop on its own loopback origin: the demo shop's files, served by a plain node:http server. */
async function startShop(): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const file =
      path === '/demo-shop.js'
        ? 'demo-shop.js'
        : path === '/' || path === '/opener.html'
          ? 'index.html'
          : null;
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    let body = await readFile(new URL(file, publicDir), 'utf8');
    if (path === '/opener.html') {
      // A page of an origin outside the allow-list that opens the modal as a window.
      body = `<!doctype html><script>window.demoEvents=[];addEventListener('message',e=>demoEvents.push(e.data));</script>`;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('the modal in Chromium, embedded by a webshop on another origin', () => {
  let h: ModalHarness;
  let shop: { server: Server; port: number };
  let receiver: HttpReceiver;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let modalOrigin: string;
  let shopOrigin: string;
  let logoPath: string;
  let dir: string;

  beforeAll(async () => {
    shop = await startShop();
    shopOrigin = `http://127.0.0.1:${shop.port}`;
    receiver = await startHttpReceiver();
    h = await startHarness({
      MODAL_PRODUCTION_ORIGINS: `${shopOrigin},https://shop-b.example,https://shop-c.example,https://shop-d.example`,
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    modalOrigin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'modal-e2e-'));
    logoPath = join(dir, 'company-logo.svg');
    await writeFile(logoPath, vectorLogo);
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await h?.close();
    await receiver?.close();
    await new Promise((r) => shop?.server.close(r));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function openShop(query: Record<string, string> = {}): Promise<Page> {
    const page = await chromium.browser.newPage();
    const q = new URLSearchParams({ modal: modalOrigin, ...query });
    await page.goto(`${shopOrigin}/?${q}`);
    return page;
  }

  it('preflight, preselection, upload, move and scale, Add to Order: messages, callback and files', async () => {
    const page = await openShop({
      callback: `${receiver.url}/webshop/logo-callback`,
      color: 'zwart',
      technique: 'TRANSFER',
    });
    // Preflight: the product without coordinates gets no button.
    await page.waitForSelector('.card[data-sku="900-03"][data-available="false"]');
    const frame = await openModalFrom(page, '900-01');
    await waitForEvents(page, ['CONFIGURATOR_READY']);

    // Preselection from the URL parameters: colour name (any case) and a technique with coordinates.
    expect(await frame.$eval('#variant', (el) => (el as HTMLSelectElement).value)).toBe('900-01.002');
    expect(await frame.$eval('#technique', (el) => (el as HTMLSelectElement).value)).toBe('TRANSFER');
    expect(await frame.$eval('#quantity', (el) => (el as HTMLInputElement).value)).toBe('250');

    await uploadLogo(frame, logoPath);
    // Scale with the slider, then drag the logo to the left: it stays inside the print area.
    await frame.$eval('#scale', (el) => {
      (el as HTMLInputElement).value = '50';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const logo = await frame.$('#logo');
    const before = await logo?.boundingBox();
    const area = await (await frame.$('#print-area'))?.boundingBox();
    if (!before || !area) throw new Error('no layout');
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    await page.mouse.move(before.x + before.width / 2 - 400, before.y + before.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    const after = await logo?.boundingBox();
    if (!after) throw new Error('no logo box');
    expect(after.x).toBeLessThan(before.x);
    expect(after.x).toBeGreaterThanOrEqual(area.x - 1);
    expect(after.width).toBeCloseTo(area.width * 0.5, 0);

    // The user switches technique by hand before ordering.
    await frame.select('#technique', 'ZEEFDRUK');
    await frame.click('#add-to-order');
    await waitForEvents(page, ['CONFIGURATOR_READY', 'SERVICE_LOGO_ADD_TO_ORDER', 'CLOSE_MODAL']);
    expect(await eventTypes(page)).toEqual([
      'CONFIGURATOR_READY',
      'SERVICE_LOGO_ADD_TO_ORDER',
      'CLOSE_MODAL',
    ]);
    // CLOSE_MODAL removed the iframe.
    expect(await page.$('iframe#logo-modal')).toBeNull();

    const msg = (await page.evaluate(() => (window as unknown as DemoShopWindow).demoEvents[1]))!;
    const base = `${modalOrigin}/api/transactions/${msg.transactionId}`;
    expect(msg).toMatchObject({
      type: 'SERVICE_LOGO_ADD_TO_ORDER',
      productSku: '900-01',
      variantSku: '900-01.002',
      selectedVariant: '900-01.002',
      selectedColor: 'Zwart',
      quantity: 250,
      techniqueCode: 'ZEEFDRUK',
      techniqueName: 'Zeefdruk',
      printArea: '250x250',
      filesUrl: `${base}/files`,
      screenshotUrl: `${base}/screenshot`,
      pdfUrl: `${base}/pdf`,
      logoUrl: `${base}/logo`,
    });
    expect(msg.basketId).toMatch(/^[0-9a-f-]{36}$/);
    expect(msg.logoConfig).toMatchObject({ techniqueCode: 'ZEEFDRUK', position: 'front', scale: 0.5 });
    expect(msg.logoConfig.x).toBeLessThan(0.5);

    // The server-to-server callback reached the receiver, signed with the integration's secret.
    const [cb] = await receiver.waitForRequests(1, 30_000);
    if (!cb) throw new Error('no callback');
    expect(cb.url).toBe('/webshop/logo-callback');
    const ts = String(cb.headers['x-aplt-timestamp']);
    const sig = `sha256=${createHmac('sha256', testSecrets().CALLBACK_DEFAULT_SECRET).update(`${ts}.${cb.body.toString()}`).digest('hex')}`;
    expect(cb.headers['x-aplt-signature']).toBe(sig);
    expect(cb.json()).toMatchObject({
      transactionId: msg.transactionId,
      variantSku: '900-01.002',
      selectedColor: 'Zwart',
      quantity: 250,
      modalUrl: `${base}/modal`,
      downloadZipUrl: `${base}/download-zip`,
    });

    // The cart shows the rendered screenshot.
    await page.waitForFunction(() => {
      const img = document.querySelector('.cart-item img') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth === 800;
    });

    // Every file endpoint answers with its content type.
    const types: Record<string, RegExp> = {
      files: /^application\/json/,
      modal: /^text\/html/,
      screenshot: /^image\/png$/,
      'screenshot?quality=high': /^image\/png$/,
      'screenshot?format=jpeg': /^image\/jpeg$/,
      pdf: /^application\/pdf$/,
      logo: /^image\/svg\+xml$/,
      eps: /^application\/postscript$/,
      'download-zip': /^application\/zip$/,
    };
    for (const [path, type] of Object.entries(types)) {
      const res = await httpRequest(`${base}/${path}`);
      expect(res.status, path).toBe(200);
      expect(String(res.headers['content-type']), path).toMatch(type);
    }

    // Cancel deletes the files; every file endpoint then answers 404.
    const del = await httpRequest(base, { method: 'DELETE' });
    expect(del.json()).toEqual({ success: true, message: 'Transaction cancelled' });
    for (const path of Object.keys(types)) {
      expect((await httpRequest(`${base}/${path}`)).status, path).toBe(404);
    }
    await expect(readdir(join(h.fileDir, 'transactions', msg.transactionId))).rejects.toThrow();
    await page.close();
  });

  it('cancel in the modal: CONFIGURATION_CANCELLED then CLOSE_MODAL, the draft cancelled, no callback', async () => {
    const callbacksBefore = receiver.requests.length;
    const page = await openShop({ callback: `${receiver.url}/never` });
    const frame = await openModalFrom(page, '900-02.002');
    await waitForEvents(page, ['CONFIGURATOR_READY']);
    expect(await frame.$eval('#variant', (el) => (el as HTMLSelectElement).value)).toBe('900-02.002');
    // No technique parameter: the product's default technique.
    expect(await frame.$eval('#technique', (el) => (el as HTMLSelectElement).value)).toBe('TAMPONDRUK');
    await uploadLogo(frame, logoPath);
    const txId = await h.fleet.tenantDbs
      .get('master')
      ?.aplt.db.selectFrom('aplt_logo_transactions')
      .select('id')
      .where('product_sku', '=', '900-02')
      .executeTakeFirstOrThrow();
    await frame.click('#cancel');
    await waitForEvents(page, ['CONFIGURATOR_READY', 'CONFIGURATION_CANCELLED', 'CLOSE_MODAL']);
    expect(await eventTypes(page)).toEqual(['CONFIGURATOR_READY', 'CONFIGURATION_CANCELLED', 'CLOSE_MODAL']);
    const tx = await httpRequest(`${modalOrigin}/api/transactions/${txId?.id}`);
    expect(tx.json().status).toBe('cancelled');
    expect(receiver.requests.length).toBe(callbacksBefore);
    await page.close();
  });

  it('an unknown technique parameter does not preselect; a page outside the allow-list gets no messages', async () => {
    const page = await openShop({ technique: 'LASER' });
    const frame = await openModalFrom(page, '900-01');
    expect(await frame.$eval('#technique', (el) => (el as HTMLSelectElement).value)).toBe('ZEEFDRUK');
    await page.close();

    // localhost:<port> is another origin than 127.0.0.1:<port> and not in the allow-list.
    const outsider = await chromium.browser.newPage();
    await outsider.goto(`http://localhost:${shop.port}/opener.html`);
    const popupTarget = chromium.browser.waitForTarget((t) => t.url().includes('/modal/'));
    await outsider.evaluate((url) => {
      window.open(url, 'modal');
    }, `${modalOrigin}/modal/?sku=900-01`);
    const popup = await (await popupTarget).page();
    if (!popup) throw new Error('no popup');
    await popup.waitForFunction(() => document.querySelectorAll('#technique option').length > 0);
    // Messages from one window are delivered in order: once 'ping' arrives, READY would have too.
    await popup.evaluate(() => window.opener.postMessage({ type: 'ping' }, '*'));
    // The opener is behind its popup: a background page gets no animation frames, so the wait
    // polls on a timer instead of puppeteer's default requestAnimationFrame (which could hang).
    await outsider.waitForFunction(() => (window as unknown as DemoShopWindow).demoEvents.length > 0, {
      polling: 50,
    });
    expect(
      await outsider.evaluate(() => (window as unknown as DemoShopWindow).demoEvents.map((e) => e.type)),
    ).toEqual(['ping']);
    await popup.close();
    await outsider.close();

    // The same opener page on the allow-listed origin does receive CONFIGURATOR_READY.
    const insider = await chromium.browser.newPage();
    await insider.goto(`${shopOrigin}/opener.html`);
    const insiderTarget = chromium.browser.waitForTarget((t) => t.url().includes('/modal/?sku=900-02'));
    await insider.evaluate((url) => {
      window.open(url, 'modal2');
    }, `${modalOrigin}/modal/?sku=900-02`);
    const popup2 = await (await insiderTarget).page();
    await insider.waitForFunction(() => (window as unknown as DemoShopWindow).demoEvents.length > 0, {
      polling: 50,
    });
    expect(
      await insider.evaluate(() => (window as unknown as DemoShopWindow).demoEvents.map((e) => e.type)),
    ).toEqual(['CONFIGURATOR_READY']);
    await popup2?.close();
    await insider.close();
  });
});
