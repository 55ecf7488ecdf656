import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromiumArgs } from '@aplt/config';
import type { Browser, ConnectionTransport } from 'puppeteer-core';

/**
 * What puppeteer's own launcher adds to our switches for a headless browser (its `defaultArgs`):
 * no throttling of pages nobody looks at, no prompts, no crash reporter, tagged PDFs.
 */
const AUTOMATION_ARGS = [
  '--allow-pre-commit-input',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-breakpad',
  '--disable-client-side-phishing-detection',
  '--disable-component-extensions-with-background-pages',
  '--disable-crash-reporter',
  '--disable-default-apps',
  '--disable-hang-monitor',
  '--disable-infobars',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--disable-search-engine-choice-screen',
  '--enable-automation',
  '--export-tagged-pdf',
  '--force-color-profile=srgb',
  '--generate-pdf-document-outline',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-features=Translate,AcceptCHFrame,MediaRouter,OptimizationHints,WebUIReloadButton,ProcessPerSiteUpToMainFrameThreshold,IsolateSandboxedIframes',
  '--enable-features=PdfOopif',
  '--hide-scrollbars',
  '--mute-audio',
  '--disable-extensions',
];

/** Debian's `chromium-headless-shell` takes plain `--headless`; full Chromium its new headless mode. */
export const isHeadlessShell = (executablePath: string) => executablePath.includes('headless-shell');

/** How long the first answer of a new browser, or a readiness question, may take. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * The DevTools protocol over `--remote-debugging-pipe`: the browser reads JSON messages from its
 * descriptor 3 and writes to 4, each ended by a NUL byte. Only this process holds the pipe, so no
 * other local user can drive the browser, as one could over a debugging port on loopback.
 */
class PipeTransport implements ConnectionTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  /** Sees each message first; one it returns true for is not passed on to puppeteer. */
  intercept?: (message: string) => boolean;
  private partial: Buffer[] = [];

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    fromBrowser.on('data', (chunk: Buffer) => this.read(chunk));
    fromBrowser.on('close', () => this.onclose?.());
    // A browser that died mid-write: its exit is reported by the process, not as an exception.
    toBrowser.on('error', () => {});
    fromBrowser.on('error', () => {});
  }

  send(message: string): void {
    this.toBrowser.write(`${message}\0`);
  }

  close(): void {
    this.toBrowser.end();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      this.partial.push(chunk.subarray(start, end));
      const message = Buffer.concat(this.partial).toString('utf8');
      this.partial = [];
      start = end + 1;
      if (!this.intercept?.(message)) this.onmessage?.(message);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }
}

/**
 * A headless Chromium this process started and speaks to over a pipe. Asking its version needs no
 * library; puppeteer is loaded and attached only when the first page is wanted (`attach`), so a
 * service whose browser is warm for readiness but has rendered nothing yet does not hold
 * puppeteer's 10-14 MB.
 */
export class ChromiumProcess {
  private browser: Promise<Browser> | null = null;
  // Far above the ids puppeteer counts up from 1, so both can ask on the same pipe.
  private nextId = 1_000_000_000;
  private readonly answers = new Map<number, (reply: { result?: unknown; error?: unknown }) => void>();
  /** Settles when the process has exited (its profile is removed by then). */
  readonly exited: Promise<void>;
  /** Settles at the first sign of its end: the pipe closing or the process exiting. */
  readonly gone: Promise<void>;
  private alive = true;

  private constructor(
    private readonly child: ChildProcess,
    private readonly transport: PipeTransport,
    profileDir: string,
  ) {
    transport.intercept = (message) => this.answer(message);
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        rmSync(profileDir, { recursive: true, force: true });
        resolve();
      });
    });
    const pipeClosed = new Promise<void>((resolve) => (child.stdio[4] as Readable).once('close', resolve));
    this.gone = Promise.race([this.exited, pipeClosed]).then(() => {
      this.alive = false;
      for (const reply of this.answers.values()) reply({ error: 'browser exited' });
      this.answers.clear();
    });
  }

  /** Starts the browser and waits for its first answer over the pipe. */
  static async launch(executablePath: string): Promise<ChromiumProcess> {
    const profileDir = mkdtempSync(path.join(tmpdir(), 'aplt-chromium-'));
    const child = spawn(
      executablePath,
      [
        ...chromiumArgs,
        ...AUTOMATION_ARGS,
        isHeadlessShell(executablePath) ? '--headless' : '--headless=new',
        '--remote-debugging-pipe',
        `--user-data-dir=${profileDir}`,
        'about:blank',
      ],
      // Its own process group, so a hard stop reaches its renderers too.
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
    );
    const transport = new PipeTransport(child.stdio[3] as Writable, child.stdio[4] as Readable);
    const chromium = new ChromiumProcess(child, transport, profileDir);
    const failed = new Promise<never>((_, reject) => {
      child.once('error', reject);
      void chromium.gone.then(() => reject(new Error(`${executablePath} exited while starting`)));
    });
    try {
      await Promise.race([chromium.version(), failed]);
    } catch (err) {
      chromium.kill();
      rmSync(profileDir, { recursive: true, force: true });
      throw err;
    }
    return chromium;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  get attached(): boolean {
    return this.browser !== null;
  }

  /** The browser's product and version, asked over its protocol (readiness). */
  async version(): Promise<string> {
    if (this.browser) return (await this.browser).version();
    const reply = (await this.call('Browser.getVersion')) as { product?: string };
    return reply.product ?? 'unknown';
  }

  /**
   * Puppeteer on the same pipe, loaded with the first call; the same Browser afterwards. A browser
   * puppeteer cannot attach to is killed, so its pool starts another for the next page.
   */
  attach(): Promise<Browser> {
    this.browser ??= (async () => {
      const { default: puppeteer } = await import('puppeteer-core');
      return puppeteer.connect({ transport: this.transport, defaultViewport: { width: 800, height: 600 } });
    })().catch((err: unknown) => {
      this.kill();
      throw err;
    });
    return this.browser;
  }

  /** Closes the browser over its protocol, and kills it if it has not gone within 5 s. */
  async close(): Promise<void> {
    if (!this.alive) {
      this.kill();
      return this.exited;
    }
    const browser = await this.browser?.catch(() => null);
    if (browser) await browser.close().catch(() => {});
    else this.transport.send(JSON.stringify({ id: this.nextId++, method: 'Browser.close' }));
    const timer = setTimeout(() => this.kill(), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined)
      return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private call(method: string): Promise<unknown> {
    if (!this.alive) return Promise.reject(new Error('browser has exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.answers.delete(id);
        reject(new Error(`browser did not answer ${method} within ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      this.answers.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.error) reject(new Error(`${method}: ${JSON.stringify(reply.error)}`));
        else resolve(reply.result);
      });
      this.transport.send(JSON.stringify({ id, method }));
    });
  }

  /** Settles one of our own questions; everything else (events, puppeteer's answers) goes on. */
  private answer(message: string): boolean {
    // Our ids have ten digits: a cheap look before parsing what is mostly puppeteer's traffic.
    if (this.answers.size === 0 || !/"id":\d{10}[,}]/.test(message)) return false;
    let parsed: { id?: unknown; result?: unknown; error?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return false;
    }
    const reply = typeof parsed.id === 'number' ? this.answers.get(parsed.id) : undefined;
    if (!reply) return false;
    this.answers.delete(parsed.id as number);
    reply(parsed);
    return true;
  }
}
