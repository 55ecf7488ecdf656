import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { safeRelativePath } from '../src/web/web-app.routes';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/** A dist folder shaped like Vite's output, beside a secret the panel must never serve. */
function fakeDist(): { root: string; dist: string } {
  const root = mkdtempSync(join(tmpdir(), 'admin-web-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  mkdirSync(join(dist, '.vite'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
  writeFileSync(join(root, 'package.json'), '{"secret":"outside dist"}');
  writeFileSync(join(root, 'secret.txt'), 'outside dist');
  return { root, dist };
}

describe('the admin panel under /app', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let missing: Awaited<ReturnType<typeof buildApp>>;
  let fake: { root: string; dist: string };
  const host = 'acme.localhost';
  const get = (url: string, headers: Record<string, string> = {}, on = app) =>
    on.inject({ url, headers: { ...viaProxy(host), ...headers } });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    fake = fakeDist();
    const deps = {
      registry: fleet.registry,
      databases: fleet.databases,
      licenses: { ...staticFeatureSource({}), start: async () => {}, close: async () => {} },
    };
    const env = { ...testSecrets(), LOG_LEVEL: 'silent' };
    app = await buildApp(deps, loadConfig({ ...env, ADMIN_WEB_DIST: fake.dist }));
    missing = await buildApp(deps, loadConfig({ ...env, ADMIN_WEB_DIST: join(fake.root, 'not-built') }));
  });
  afterAll(async () => {
    await app?.close();
    await missing?.close();
    await fleet?.cleanup();
    if (fake) rmSync(fake.root, { recursive: true, force: true });
  });

  it('answers index.html, never cached, for /app and every client-side route', async () => {
    for (const url of [
      '/app',
      '/app/',
      '/app/login?redirect=%2Fquotations',
      '/app/quotations',
      '/app/quotations/42/edit',
      '/app/settings/dev-projects?code=DP-7',
      '/app/index.html',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('serves hashed assets as immutable for a year, compressed when the browser accepts it', async () => {
    const plain = await get('/app/assets/index-abc123.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe(SCRIPT);

    const gz = await get('/app/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gz.rawPayload.length).toBeLessThan(SCRIPT.length / 4);

    const icon = await get('/app/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for an unknown asset (an old tab must not get HTML for a script)', async () => {
    const res = await get('/app/assets/index-gone99.js');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: 'not_found' });
  });

  it('never serves a file outside dist, whatever the spelling of the path', async () => {
    const attempts = [
      '/app/..%2f..%2fpackage.json',
      '/app/..%2fsecret.txt',
      '/app/%2e%2e/secret.txt',
      '/app/%2e%2e%2fsecret.txt',
      '/app/assets/..%2f..%2fsecret.txt',
      '/app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/app/..%5csecret.txt',
      '/app//etc/passwd',
      '/app/.vite/manifest.json',
      '/app/%2evite/manifest.json',
      '/app/secret.txt%00.js',
      '/app/assets/index-abc123.js%00',
      '/app/C:%5cwindows',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect([400, 404], `${url} -> ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body, url).not.toContain('outside dist');
      expect(res.body, url).not.toContain('"secret"');
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    // The raw (unencoded) dot segments of a client that does not normalise.
    for (const url of ['/app/../secret.txt', '/app/assets/../../package.json']) {
      const res = await get(url);
      expect(res.body, url).not.toContain('outside dist');
    }
  });

  it('explains how to build the panel when there is no build, for every path', async () => {
    for (const url of ['/app', '/app/', '/app/quotations', '/app/assets/index-abc123.js']) {
      const res = await get(url, {}, missing);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.body, url).toContain('pnpm --filter @aplt/admin-web build');
      expect(res.body, url).toContain('data-state="not-built"');
    }
    // The API keeps answering without a panel.
    expect((await get('/admin/features', {}, missing)).statusCode).toBe(200);
  });

  it('needs the proxy’s identity assertion like every tenant route', async () => {
    for (const url of ['/app', '/app/quotations', '/app/assets/index-abc123.js']) {
      const res = await app.inject({ url, headers: { host } });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('takes only plain paths down the tree', () => {
    expect(safeRelativePath('assets/index-abc.js')).toBe('assets/index-abc.js');
    expect(safeRelativePath('quotations/42')).toBe('quotations/42');
    expect(safeRelativePath('')).toBe('');
    for (const bad of [
      '..',
      '../x',
      'a/../../x',
      './x',
      'a//b',
      '/etc/passwd',
      'a\\b',
      'C:',
      '.vite/x',
      'a/.git',
    ])
      expect(safeRelativePath(bad), bad).toBeNull();
  });
});
