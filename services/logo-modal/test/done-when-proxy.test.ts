import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { startTestProxy, type TestProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openModalFrom, uploadLogo, waitForEvents } from './browser';
import { type ModalHarness, startHarness, vectorLogo } from './helpers';

const run = promisify(execFile);
// For a person to look at: the modal with the logo placed, the shop's cart after 'Add to Order',
// and the product preview and proof the ZIP carries.
const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/logo-modal/', import.meta.url));

describe('Done when: through the proxy, a person configures a product on the demo webshop and downloads the ZIP', () => {
  let h: ModalHarness;
  let proxy: TestProxy;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let dir: string;

  beforeAll(async () => {
    h = await startHarness();
    proxy = await startTestProxy({
      access: await createAccessAppForTest(h.fleet.registry),
      'logo-modal': h.app,
    });
    chromium = await launchChromium();
    dir = await mkdtemp(join(tmpdir(), 'done-when-'));
  });

  afterAll(async () => {
    await chromium?.close();
    await proxy?.stop();
    await h?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the modal host is public (no forward auth) and serves the demo shop', async () => {
    // Another client than this machine: forward auth would refuse it on a tenant host.
    const res = await proxy.request('modal.localhost', '/demo-shop/', { localAddress: '127.0.0.2' });
    expect(res.status).toBe(200);
    expect(res.text()).toContain('Demo webshop');
    const check = await proxy.request('modal.localhost', '/api/config-check/900-01');
    expect(check.json()).toMatchObject({ available: true });
  });

  it('demo shop -> modal -> logo -> Add to Order -> ZIP with screenshot, proof PDF, logo and EPS', async () => {
    const page = await chromium.browser.newPage();
    const origin = `http://modal.localhost:${proxy.port}`;
    await page.goto(`${origin}/demo-shop/`);
    const frame = await openModalFrom(page, '900-01');
    await waitForEvents(page, ['CONFIGURATOR_READY']);
    await frame.select('#variant', '900-01.001');
    const logoPath = join(dir, 'logo.svg');
    await writeFile(logoPath, vectorLogo);
    await uploadLogo(frame, logoPath);
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'modal-logo-placed.png') });
    await frame.click('#add-to-order');
    await waitForEvents(page, ['CONFIGURATOR_READY', 'SERVICE_LOGO_ADD_TO_ORDER', 'CLOSE_MODAL']);
    await page.screenshot({ path: join(SHOTS, 'shop-cart.png'), fullPage: true });

    const zipHref = await page.$eval('.cart-item a.zip', (a) => (a as HTMLAnchorElement).href);
    expect(zipHref).toMatch(new RegExp(`^${origin}/api/transactions/[0-9a-f-]{36}/download-zip$`));
    const zip = await proxy.request('modal.localhost', new URL(zipHref).pathname);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const zipPath = join(dir, 'files.zip');
    await writeFile(zipPath, zip.body);
    const { stdout } = await run('unzip', ['-Z1', zipPath]);
    expect(stdout.trim().split('\n').sort()).toEqual([
      'korrekturabzug_900-01.001.pdf',
      'logo.eps',
      'logo.svg',
      'screenshot.png',
    ]);
    await run('unzip', ['-q', '-t', zipPath]);
    await run('unzip', ['-o', '-q', zipPath, 'screenshot.png', 'korrekturabzug_900-01.001.pdf', '-d', SHOTS]);
    await page.close();
  });
});
