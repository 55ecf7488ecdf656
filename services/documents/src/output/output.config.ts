import { existsSync } from 'node:fs';
import { env, loadEnv } from '@aplt/config';
import { z } from 'zod';

/** Settings of document output (PDF, .eml, UBL); parsed apart so the core config stays untouched. */
export const outputConfigShape = {
  // Debian's browser binary; unset picks chromium-headless-shell (lighter) and falls back to chromium.
  CHROMIUM_PATH: env.optionalStr(),
  // Start the browser when the service starts instead of at the first PDF or readiness probe.
  PDF_WARM_ON_START: env.bool(false),
  // Pages the one warm browser renders at once; further requests wait in a queue.
  PDF_POOL_SIZE: z.coerce.number().int().min(1).max(32).default(4),
  // Requests allowed to wait for a page; beyond this the service answers 503 instead of piling up.
  PDF_QUEUE_LIMIT: z.coerce.number().int().min(0).default(200),
  // Issued invoices and credit notes are stored here at first render and served from here afterwards.
  DOCUMENT_STORE_DIR: env.str('.run/documents'),
  // Catalog images are fetched server-side and embedded; a slow image host must not stall a PDF.
  PDF_IMAGE_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
};

export type OutputConfig = ReturnType<typeof loadOutputConfig>;
export const loadOutputConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(outputConfigShape, source);

// Debian's /usr/bin/chromium-headless-shell is a shell wrapper that does not exec: launching the
// real binary keeps the browser's pid our child (crash detection, memory, clean kill).
const BROWSER_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
];

/** The browser to launch: the configured one, else the first Debian binary that exists. */
export function resolveChromiumPath(configured?: string): string {
  if (configured) return configured;
  const found = BROWSER_CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error(`no browser found (tried ${BROWSER_CANDIDATES.join(', ')}); set CHROMIUM_PATH`);
  return found;
}
