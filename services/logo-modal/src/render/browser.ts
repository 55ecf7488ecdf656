import { BrowserPool as PagePool } from '@aplt/browser';

/** Pages rendering at once in the modal: a proof and an EPS page per transaction, two cores. */
export const MODAL_RENDER_PAGES = 2;

/**
 * The modal's renderer: the fleet's bounded browser pool (one warm Chromium per process, at most
 * `size` pages, later callers wait in turn), with every request but data: URLs refused, since the
 * logo in the proof is the customer's upload.
 */
export class BrowserPool {
  readonly pool: PagePool;

  constructor(executablePath: string, size = MODAL_RENDER_PAGES) {
    this.pool = new PagePool({
      executablePath,
      size,
      preparePage: async (page) => {
        await page.setRequestInterception(true);
        page.on('request', (req) => {
          if (req.url().startsWith('data:')) void req.continue();
          else void req.abort();
        });
      },
    });
  }

  /** Prints an HTML document to PDF; the page has no network access (everything is inline). */
  htmlToPdf(html: string, pdf: { width: string; height: string }): Promise<Buffer> {
    return this.pool.withPage(async (page) => {
      await page.setContent(html, { waitUntil: 'load' });
      const out = await page.pdf({
        width: pdf.width,
        height: pdf.height,
        printBackground: true,
        pageRanges: '1',
      });
      return Buffer.from(out);
    });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
