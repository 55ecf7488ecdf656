import { existsSync } from 'node:fs';
import { chromiumArgs } from '@aplt/config';
import type { Browser, Page } from 'puppeteer-core';
import { ChromiumProcess, isHeadlessShell } from './chromium-process';

export interface BrowserPoolOptions {
  /** The browser binary, or how to find it (resolved at launch, so a missing one fails readiness, not boot). */
  executablePath: string | (() => string);
  /** Pages rendering at once; more callers wait in FIFO order. */
  size: number;
  /** Callers allowed to wait; one more is refused with PoolBusyError. */
  queueLimit?: number;
  onEvent?: (event: 'launch' | 'crash', detail: Record<string, unknown>) => void;
  /**
   * Runs once on each new page, after scripts are turned off and the network is set offline
   * (the modal also refuses every request but data: URLs, since a logo is untrusted input).
   */
  preparePage?: (page: Page) => Promise<void>;
}

/**
 * Debian's Chromium headless with our flags, launched by puppeteer itself: the PDF bench's
 * baseline beside the pool (which starts its browser as a ChromiumProcess).
 */
export async function launchChromium(executablePath: string): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({
    executablePath,
    headless: isHeadlessShell(executablePath) ? 'shell' : true,
    args: [...chromiumArgs],
    // The service's own shutdown closes the browser; let the process signals reach Node.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

const PAGE_REUSE_LIMIT = 500;

export class PoolBusyError extends Error {
  constructor() {
    super('PDF renderer queue is full');
    this.name = 'PoolBusyError';
  }
}

/**
 * One warm browser per process with a bounded set of reusable pages. Callers beyond `size` wait
 * instead of spawning browsers. When the browser dies, the next caller launches a new one; a
 * render that was cut off by the crash is retried once on the new browser, so a crash fails at
 * most the request in flight.
 */
export class BrowserPool {
  private chromium: ChromiumProcess | null = null;
  private launching: Promise<ChromiumProcess> | null = null;
  private lastLaunchError: Error | null = null;
  private idle: Page[] = [];
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  private closed = false;
  // Renders per page: a page is closed after PAGE_REUSE_LIMIT so renderer memory cannot creep.
  private readonly pageUses = new WeakMap<Page, number>();
  readonly stats = { launches: 0, attaches: 0, crashes: 0, renders: 0, peakActive: 0, peakQueued: 0 };

  constructor(private readonly opts: BrowserPoolOptions) {}

  /** Runs fn with a page of the warm browser; the page is kept for the next caller afterwards. */
  async withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
    await this.acquireSlot();
    try {
      return await this.runWithOneRetry(fn);
    } finally {
      this.releaseSlot();
    }
  }

  /**
   * Readiness, without ever holding a probe for a cold start (probes time out in 2 s): a running
   * browser must answer over its protocol; a missing binary or a failed launch is reported; a
   * browser not started yet (or starting) counts as ready and is started in the background, so
   * the first probe warms it.
   */
  async ping(): Promise<string> {
    if (this.closed) throw new Error('browser pool is closed');
    if (this.chromium?.running) return this.chromium.version();
    const path = this.executablePath();
    if (!existsSync(path)) throw new Error(`browser binary ${path} not found`);
    const failed = this.lastLaunchError;
    this.ensureChromium().catch(() => {});
    if (failed) throw failed;
    return 'starting';
  }

  /** Process id of the current browser (benchmarks measure its memory; tests kill it). */
  browserPid(): number | undefined {
    return this.chromium?.running ? this.chromium.pid : undefined;
  }

  get queued(): number {
    return this.waiters.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const chromium = this.chromium ?? (await this.launching?.catch(() => null));
    this.chromium = null;
    this.idle = [];
    await chromium?.close();
  }

  private async runWithOneRetry<T>(fn: (page: Page) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const chromium = await this.ensureChromium();
      const browser = await this.attach(chromium);
      let page: Page | undefined;
      try {
        page = this.idle.pop() ?? (await this.newPage(browser));
        const result = await fn(page);
        const uses = (this.pageUses.get(page) ?? 0) + 1;
        this.pageUses.set(page, uses);
        if (uses < PAGE_REUSE_LIMIT && chromium === this.chromium && browser.connected && !page.isClosed()) {
          this.idle.push(page);
        } else if (!page.isClosed()) {
          page.close().catch(() => {});
        }
        page = undefined;
        this.stats.renders++;
        return result;
      } catch (err) {
        if (page && !page.isClosed()) page.close().catch(() => {});
        // Only a dead browser earns a retry; a template or content error would fail again.
        if (!browser.connected && attempt === 0 && !this.closed) continue;
        throw err;
      }
    }
  }

  private async newPage(browser: Browser): Promise<Page> {
    const page = await browser.newPage();
    // Templates are static HTML with embedded images: no scripts, no network.
    await page.setJavaScriptEnabled(false);
    await page.setOfflineMode(true);
    await this.opts.preparePage?.(page);
    return page;
  }

  private ensureChromium(): Promise<ChromiumProcess> {
    if (this.closed) return Promise.reject(new Error('browser pool is closed'));
    if (this.chromium?.running) return Promise.resolve(this.chromium);
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private executablePath(): string {
    return typeof this.opts.executablePath === 'function'
      ? this.opts.executablePath()
      : this.opts.executablePath;
  }

  private async launch(): Promise<ChromiumProcess> {
    const path = this.executablePath();
    let chromium: ChromiumProcess;
    try {
      chromium = await ChromiumProcess.launch(path);
    } catch (err) {
      this.lastLaunchError = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
    this.lastLaunchError = null;
    this.stats.launches++;
    this.chromium = chromium;
    this.idle = [];
    void chromium.gone.then(() => {
      if (this.chromium !== chromium) return;
      this.chromium = null;
      this.idle = [];
      if (!this.closed) {
        this.stats.crashes++;
        this.opts.onEvent?.('crash', { pid: chromium.pid });
      }
    });
    this.opts.onEvent?.('launch', { pid: chromium.pid, path });
    return chromium;
  }

  /** Puppeteer on the running browser, at the first page it is asked for. */
  private async attach(chromium: ChromiumProcess): Promise<Browser> {
    const first = !chromium.attached;
    const browser = await chromium.attach();
    if (first) this.stats.attaches++;
    return browser;
  }

  private acquireSlot(): Promise<void> {
    if (this.active < this.opts.size) {
      this.active++;
      this.stats.peakActive = Math.max(this.stats.peakActive, this.active);
      return Promise.resolve();
    }
    if (this.waiters.length >= (this.opts.queueLimit ?? Infinity)) return Promise.reject(new PoolBusyError());
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.stats.peakQueued = Math.max(this.stats.peakQueued, this.waiters.length);
    });
  }

  private releaseSlot(): void {
    // The slot passes straight to the next waiter, so `active` never exceeds size.
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}
