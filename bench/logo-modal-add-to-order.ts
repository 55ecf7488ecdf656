// Time from 'Add to Order' to (a) all files ready (the add-to-order response: screenshot, HQ
// screenshot, proof PDF, EPS stored) and (b) the signed callback received by a webshop receiver on
// loopback (queue + worker + HTTP), p50/p99 over sequential orders. Baseline in the same run: the
// same renders called directly in-process (sharp + Chromium + gs), without HTTP, DB, store or queue.
import { startHttpReceiver } from '@aplt/testing';
import { toteTemplate } from '@aplt/service-logo-modal/demo';
import {
  BrowserPool,
  logoOnlyHtml,
  pdfToEps,
  proofHtml,
  renderScreenshot,
  sanitizeSvg,
} from '@aplt/service-logo-modal/render';
import { modalFixture } from '../services/logo-modal/bench/fixture';
import { multipart, vectorLogo } from '../services/logo-modal/test/helpers';

const N = Number(process.env.ORDERS ?? 30);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} ms  p99 ${pct(xs, 99).toFixed(0)} ms`;

const h = await modalFixture();
const receiver = await startHttpReceiver();
const seen = new Map<string, number>();
receiver.respondWith((req) => {
  seen.set(req.json().transactionId, performance.now());
  return { status: 200, body: { success: true } };
});

async function prepare(): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/transactions',
    payload: {
      productSku: '900-01',
      variantSku: '900-01.002',
      techniqueCode: 'ZEEFDRUK',
      quantity: 100,
      callbackUrl: `${receiver.url}/cb`,
    },
  });
  const id = res.json().transaction_id as string;
  const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
  await h.app.inject({
    method: 'POST',
    url: `/api/transactions/${id}/logo`,
    payload: m.body,
    headers: m.headers,
  });
  return id;
}

async function delivered(id: string): Promise<number> {
  for (;;) {
    const at = seen.get(id);
    if (at !== undefined) return at;
    await new Promise((r) => setTimeout(r, 1));
  }
}

// Baseline: the same renders, in-process, nothing else.
const browser = new BrowserPool('/usr/bin/chromium-headless-shell');
const logo = {
  format: 'svg' as const,
  data: Buffer.from(await sanitizeSvg(vectorLogo)),
  width: 200,
  height: 100,
};
const box = { x: 180, y: 240, width: 240, height: 240 };
async function baselineOnce() {
  const input = { templateSvg: await sanitizeSvg(toteTemplate), box, logo, placement: { scale: 0.7 } };
  const shot = await renderScreenshot(input, 800);
  const html = proofHtml({
    transactionId: 'bench',
    productName: 'Demo',
    productSku: '900-01',
    variantSku: '900-01.002',
    colorName: 'Zwart',
    techniqueCode: 'ZEEFDRUK',
    techniqueName: 'Zeefdruk',
    position: 'front',
    printArea: '250x250',
    quantity: 100,
    colors: ['#0A7F3F'],
    logo,
    placement: { scale: 0.7 },
    screenshotPng: shot,
    createdAt: new Date(),
  });
  const page = logoOnlyHtml(logo);
  await Promise.all([
    renderScreenshot(input, 2400),
    browser.htmlToPdf(html, { width: '210mm', height: '297mm' }),
    browser.htmlToPdf(page.html, page).then((pdf) => pdfToEps(pdf, 'gs')),
  ]);
}

try {
  // Warm-up: Chromium start, template cache, first JIT.
  await baselineOnce();
  const warm = await prepare();
  await h.app.inject({ method: 'POST', url: `/api/transactions/${warm}/add-to-order`, payload: {} });
  await delivered(warm);

  const base: number[] = [];
  const filesReady: number[] = [];
  const callbackDone: number[] = [];
  for (let i = 0; i < N; i++) {
    // Interleaved, so other load on the machine hits both alike.
    let t = performance.now();
    await baselineOnce();
    base.push(performance.now() - t);

    const id = await prepare();
    t = performance.now();
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/transactions/${id}/add-to-order`,
      payload: {},
    });
    if (res.statusCode !== 200) throw new Error(`add-to-order ${res.statusCode}: ${res.body}`);
    filesReady.push(performance.now() - t);
    callbackDone.push((await delivered(id)) - t);
  }
  console.log(`logo-modal 'Add to Order', ${N} sequential orders (SVG logo, tote bag 900-01)`);
  console.log(`  baseline: same renders in-process        ${fmt(base)}`);
  console.log(`  Add to Order -> all files ready          ${fmt(filesReady)}`);
  console.log(`  Add to Order -> callback delivered       ${fmt(callbackDone)}`);
} finally {
  await browser.close();
  await receiver.close();
  await h.cleanup();
}
