import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AccessApp } from '../app';

/**
 * The ALTCHA widget (`altcha` on npm: the web component that speaks altcha-lib's challenge
 * format) served from this service, so the login page loads nothing from elsewhere. Its URL
 * carries a hash of its content: cached for a year, replaced by a new URL when the package is.
 */
export function captchaWidget() {
  // The package's `require` entry is its UMD build; the ES module lies beside it.
  const file = join(dirname(createRequire(import.meta.url).resolve('altcha')), 'altcha.js');
  const body = readFileSync(file);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { url: `/assets/altcha-${hash}.js`, body };
}

export function captchaWidgetRoute(app: AccessApp, widget: { url: string; body: Buffer }) {
  app.get(widget.url, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(widget.body),
  );
}
