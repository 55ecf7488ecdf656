// Largest Contentful Paint of the storefront's product page (`shop.acme.localhost/nl/products/<sku>`,
// served by apps/storefront/server.mjs (Next's handler behind the page cache: after the first
// visit the page comes from the cache) behind Caddy with forward auth, gatekeeper on and this
// machine approved) in Debian's Chromium, beside a baseline in the same run: the same product page's final
// HTML and its style sheets, inlined into one static file, from a bare node:http server (no proxy,
// no forward auth, no rendering, no JavaScript). Each run opens a fresh browser context (cold
// browser cache; the servers' caches warm after the first). Supplier images live on the suppliers'
// hosts, which this machine cannot reach: requests to any host but ours are failed at once, so the
// page shows the product's initial, as it does whenever a supplier image fails (both pages alike).
// Goal of issue #15: under 1 s.
//   npx tsx bench/storefront-lcp.ts        (RUNS=9)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from '@aplt/testing';
import { startStorefrontFleet, viaProxy } from './storefront-fleet';

// puppeteer-core's types, through the helper that owns the dependency.
type Browser = Awaited<ReturnType<typeof launchChromium>>['browser'];
type Page = Awaited<ReturnType<Browser['newPage']>>;

const RUNS = Number(process.env.RUNS ?? 9);

declare global {
  interface Window {
    __lcp?: { time: number; element: string };
  }
}

/** Only our own hosts: a supplier's host would hang until Chromium gives up. */
async function localOnly(page: Page): Promise<void> {
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const host = new URL(request.url()).hostname;
    if (host === '127.0.0.1' || host.endsWith('.localhost')) void request.continue();
    else void request.abort('addressunreachable');
  });
}

/** LCP of one fresh visit: the last `largest-contentful-paint` entry once the page is idle. */
async function lcpOf(
  browser: Browser,
  url: string,
): Promise<{ time: number; element: string; cache: string }> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await localOnly(page);
    await page.evaluateOnNewDocument(() => {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
          const el = e.element;
          window.__lcp = {
            time: e.startTime,
            element: el
              ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`
              : '?',
          };
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    // Not networkidle: Next prefetches every link of the page after hydration. LCP entries come
    // with paints; half a second after load no later candidate appears on these pages.
    const res = await page.goto(url, { waitUntil: 'load' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!res || res.status() !== 200) throw new Error(`${url} answered ${res?.status()}`);
    if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`sent to ${page.url()}`);
    const lcp = await page.evaluate(() => window.__lcp);
    if (!lcp) throw new Error(`no LCP entry for ${url}`);
    return { ...lcp, cache: res.headers()['x-page-cache'] ?? '-' };
  } finally {
    await context.close();
  }
}

const fleet = await startStorefrontFleet();
const chromium = await launchChromium();
const bare = createServer();
try {
  const { proxyPort } = fleet;
  const list = JSON.parse(
    (await viaProxy(proxyPort, 'acme.localhost', '/store/aplt/products?lang=nl&limit=1')).body,
  ) as { products: { sku: string; name: string }[] };
  const product = list.products[0]!;
  const shopUrl = `http://shop.acme.localhost:${proxyPort}/nl/products/${encodeURIComponent(product.sku)}`;

  // The baseline: the rendered page as it stands in the browser, styles inlined, scripts removed.
  const page = await chromium.browser.newPage();
  await localOnly(page);
  await page.goto(shopUrl, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=unit-price]');
  const staticHtml = await page.evaluate(async () => {
    const css: string[] = [];
    for (const link of [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')]) {
      css.push(await (await fetch(link.href)).text());
      link.remove();
    }
    for (const s of [...document.querySelectorAll('script, link[rel=preload], link[rel=modulepreload]')])
      s.remove();
    const style = document.createElement('style');
    style.textContent = css.join('\n');
    document.head.append(style);
    return `<!doctype html>${document.documentElement.outerHTML}`;
  });
  await page.close();
  bare.on('request', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(staticHtml);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/nl/products/${encodeURIComponent(product.sku)}`;

  console.log(`product ${product.sku} (${product.name}); ${RUNS} fresh visits each, alternating`);
  const times: Record<'bare' | 'shop', number[]> = { bare: [], shop: [] };
  const elements = new Set<string>();
  const cacheStates: Record<string, number> = {};
  await lcpOf(chromium.browser, shopUrl); // first render of this product and its price tiers
  for (let i = 0; i < RUNS; i++) {
    times.bare.push((await lcpOf(chromium.browser, bareUrl)).time);
    const shop = await lcpOf(chromium.browser, shopUrl);
    times.shop.push(shop.time);
    elements.add(shop.element);
    cacheStates[shop.cache] = (cacheStates[shop.cache] ?? 0) + 1;
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const row = (name: string, xs: number[]) =>
    console.log(
      `${name.padEnd(64)} LCP median ${median(xs).toFixed(0).padStart(5)} ms  max ${Math.max(...xs)
        .toFixed(0)
        .padStart(5)} ms`,
    );
  row('static HTML of the same page from a bare node server (baseline)', times.bare);
  row('product page on shop.acme.localhost (server.mjs, Caddy, forward auth)', times.shop);
  console.log(`page cache answers to the measured visits: ${JSON.stringify(cacheStates)}`);
  console.log(`LCP element of the shop page: ${[...elements].join(', ')} (goal: median under 1000 ms)`);
} finally {
  bare.close();
  await chromium.close();
  await fleet.stop();
}
