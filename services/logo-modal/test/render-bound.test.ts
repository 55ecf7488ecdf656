import type { Target } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../src/render/browser';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const A4 = { width: '210mm', height: '297mm' };

describe('the modal renderer is bounded', () => {
  const size = 2;
  const renderer = new BrowserPool(CHROMIUM, size);
  afterAll(() => renderer.close());

  it(`runs ${size + 1} concurrent renders on at most ${size} pages, the last one waiting its turn`, async () => {
    // One render first, to reach the warm browser and count every page opened after it.
    const browser = await renderer.pool.withPage(async (page) => page.browser());
    let opened = 0;
    const onTarget = (t: Target) => {
      if (t.type() === 'page') opened++;
    };
    browser.on('targetcreated', onTarget);
    const pagesBefore = (await browser.pages()).length;

    const renders = Array.from({ length: size + 1 }, (_, i) =>
      renderer.htmlToPdf(`<html><body><h1>Proof ${i}</h1></body></html>`, A4),
    );
    // The slots are taken synchronously: the third caller is already waiting, no page for it.
    expect(renderer.pool.queued).toBe(1);
    const pdfs = await Promise.all(renders);
    browser.off('targetcreated', onTarget);

    for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(renderer.pool.stats.peakActive).toBe(size);
    // The warm-up's page is reused: at most size - 1 new pages, never one per render.
    expect(opened).toBeLessThanOrEqual(size - 1);
    expect((await browser.pages()).length).toBeLessThanOrEqual(pagesBefore + size - 1);
  });

  it('refuses every request but data: URLs (the logo is untrusted)', async () => {
    const seen = await renderer.pool.withPage(async (page) => {
      const failed: string[] = [];
      const onFail = (req: { url(): string }) => failed.push(req.url());
      page.on('requestfailed', onFail);
      await page.setContent(
        '<img src="http://127.0.0.1:9/x.png"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
        { waitUntil: 'load' },
      );
      page.off('requestfailed', onFail);
      return failed;
    });
    expect(seen).toEqual(['http://127.0.0.1:9/x.png']);
  });
});
