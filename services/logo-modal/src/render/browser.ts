import { chromiumArgs } from '@aplt/config';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * One headless Chromium per process, launched on first use and shared by every render (a new
 * page per render costs milliseconds; a new browser costs half a second). A crashed browser is
 * replaced on the next render.
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined;

  constructor(private readonly executablePath: string) {}

  private get(): Promise<Browser> {
    this.browser ??= puppeteer
      .launch({ executablePath: this.executablePath, headless: true, args: [...chromiumArgs] })
      .then((b) => {
        b.on('disconnected', () => {
          this.browser = undefined;
        });
        return b;
      });
    this.browser.catch(() => {
      this.browser = undefined;
    });
    return this.browser;
  }

  /** Prints an HTML document to PDF; the page has no network access (everything is inline). */
  async htmlToPdf(html: string, pdf: { width: string; height: string }): Promise<Buffer> {
    const browser = await this.get();
    const page = await browser.newPage();
    try {
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
      page.on('request', (req) => {
        if (req.url().startsWith('data:')) void req.continue();
        else void req.abort();
      });
      await page.setContent(html, { waitUntil: 'load' });
      const out = await page.pdf({
        width: pdf.width,
        height: pdf.height,
        printBackground: true,
        pageRanges: '1',
      });
      return Buffer.from(out);
    } finally {
      await page.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b.catch(() => undefined))?.close();
  }
}
