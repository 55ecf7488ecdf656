import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commerceActorCheck, useActorCheck } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { createRedis, QueueClient, type WorkerHandle } from '@aplt/queue';
import { buildApp as buildAuth } from '@aplt/service-auth/app';
import { loadConfig as authConfig } from '@aplt/service-auth/config';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildDocuments } from '@aplt/service-documents/app';
import { loadConfig as documentsConfig } from '@aplt/service-documents/config';
import { loadPartnerConfig, startPartnerWorker } from '@aplt/service-documents/partner-worker';
import {
  createTestFleet,
  createTestRedis,
  launchChromium,
  type PartnerFake,
  startPartnerFake,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ensureWebBuild, webDist } from './web-build';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/admin/', import.meta.url));

/**
 * The order page's partner section (issue #16) in Chromium through the real proxy, with the
 * documents service's partner worker and the loopback partner fake: an order the partner refused
 * shows the failure and is sent again from the page; a sent one is sent again anyway only after a
 * confirmation, and the partner still holds one order.
 */
describe('partner fulfilment on the order page', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let partner: PartnerFake;
  let proxy: TestProxy;
  let worker: WorkerHandle;
  let queues: QueueClient;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let page: Page;
  let base: string;
  let orderId: number;
  const problems: string[] = [];

  const api = async (method: string, path: string, token: string, body?: object) => {
    const res = await proxy.request('acme.localhost', path, {
      method,
      body,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.toString()}`);
    return res.json();
  };
  const waitFor = (fn: (...a: never[]) => unknown, ...args: unknown[]) =>
    page.waitForFunction(fn as never, { timeout: 60_000, polling: 100 }, ...(args as never[]));
  async function shot(name: string) {
    await page.evaluate(() =>
      document
        .querySelectorAll<HTMLElement>('[data-sonner-toaster]')
        .forEach((t) => (t.style.display = 'none')),
    );
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  beforeAll(async () => {
    ensureWebBuild();
    mkdirSync(SHOTS, { recursive: true });
    [fleet, redis, partner] = await Promise.all([
      createTestFleet([{ id: 'acme' }]),
      createTestRedis(),
      startPartnerFake({ username: 'acme-api', password: 'Partner-Pass-2026' }),
    ]);
    const secrets = testSecrets();
    const env = { ...process.env, ...fleet.env, ...secrets, LOG_LEVEL: 'silent' } as Record<string, string>;
    await seedAdminUsers({
      registry: fleet.registry,
      databases: fleet.databases,
      env,
      log: () => {},
    } as unknown as SeedContext);
    const db = fleet.tenantDbs.get('acme')!.aplt.db;
    await db
      .insertInto('aplt_suppliers')
      .values([
        { code: '01', name: 'Eigen voorraad' },
        { code: '03', name: 'Partner' },
      ])
      .execute();
    const products = await db
      .insertInto('aplt_products')
      .values([
        { sku: '100-01', supplier_code: '01', name_nl: 'Balpen', retail_price_100: '1.5000' },
        {
          sku: '300-01',
          supplier_code: '03',
          supplier_sku: 'PX-300',
          name_nl: 'Mok',
          retail_price_100: '3.0000',
        },
      ])
      .returning('id')
      .execute();
    const customer = await db
      .insertInto('aplt_customers')
      .values({ email: 'inkoop@bakker.nl', company: 'Bakker Bouw BV', country: 'NL', city: 'Utrecht' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const deps = { registry: fleet.registry, databases: fleet.databases };
    const admin = await buildApp(
      { ...deps, licenses: allFeaturesClient },
      loadConfig({ ...secrets, LOG_LEVEL: 'silent', ADMIN_WEB_DIST: webDist }),
    );
    useActorCheck(admin, commerceActorCheck(fleet.databases));
    const auth = await buildAuth(
      { ...deps, licenses: allFeaturesClient },
      authConfig({
        LOG_LEVEL: 'silent',
        JWT_SECRET: secrets.JWT_SECRET,
        ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
        AUTH_TOTP_KEY: secrets.AUTH_TOTP_KEY,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        MAIL_WORKER: 'false',
      }),
    );
    process.env.DOCUMENT_STORE_DIR = join(tmpdir(), `partner-panel-${redis.prefix}`);
    const documents = await buildDocuments(
      { ...deps, licenses: allFeaturesClient },
      documentsConfig({ ...env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }),
    );
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...secrets }),
      auth,
      admin,
      documents,
    });
    base = `http://acme.localhost:${proxy.port}`;
    queues = new QueueClient(createRedis(redis.url), redis.prefix);
    worker = startPartnerWorker(
      deps,
      {
        config: loadPartnerConfig({ PARTNER_TIMEOUT_MS: '2000', PARTNER_RETRY_DELAYS_MS: '10,20,40' }),
        masterSecret: secrets.JWT_SECRET,
      },
      { connection: createRedis(redis.url, { forWorker: true }), prefix: redis.prefix, queues },
    );

    // Staff set the partner up and accept a quotation with a partner line; the partner refuses it.
    const login = await proxy.request('acme.localhost', '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    const token = String(login.json().token);
    await api('PUT', '/admin/aplt/parameters/partner', token, {
      enabled: true,
      base_url: partner.url,
      username: 'acme-api',
      password: 'Partner-Pass-2026',
      supplier_codes: ['03'],
    });
    partner.failNext('transactions.create', { status: 400, body: { lines: ['Unknown article PX-300'] } });
    const q = await api('POST', '/admin/aplt/quotations', token, {
      customer_id: Number(customer.id),
      lines: [
        { product_id: Number(products[0]!.id), quantity: 100 },
        { product_id: Number(products[1]!.id), quantity: 250 },
      ],
    });
    orderId = Number((await api('POST', '/admin/aplt/quotations/confirm', token, { id: q.id })).id);

    chromium = await launchChromium();
    browser = chromium.browser;
    page = await browser.newPage();
    await page.setViewport({ width: 1440, height: 1100 });
    page.on('pageerror', (err) => {
      if (String(err).includes('AbortError: signal is aborted without reason')) return;
      problems.push(`pageerror: ${String(err)}`);
    });
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    await worker?.close();
    await queues?.close();
    await proxy?.stop();
    await partner?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  it('shows the refusal and sends the order again from the page', async () => {
    await page.goto(`${base}/app/login?redirect=${encodeURIComponent(`/orders/${orderId}`)}`);
    await page.waitForSelector('[data-testid="login-form"]');
    await page.type('input[name="email"]', demoAdmin.email);
    await page.type('input[name="password"]', demoAdmin.password);
    await page.click('[data-testid="login-submit"]');
    await page.waitForSelector('[data-testid="order-detail"]');
    // The worker records the refusal; the section follows it (it refreshes while the order waits).
    await page.reload();
    await waitFor(
      () =>
        document.querySelector('[data-testid="order-partner-status"]')?.getAttribute('data-status') ===
        'failed',
    );
    const error = await page.$eval('[data-testid="order-partner-error"]', (e) => e.textContent ?? '');
    expect(error).toContain('answered 400');
    expect(error).toContain('Unknown article PX-300');
    await shot('order-partner-failed');

    await page.click('[data-testid="order-partner-resend"]');
    await waitFor(
      () =>
        document.querySelector('[data-testid="order-partner-status"]')?.getAttribute('data-status') ===
        'pushed',
    );
    expect(await page.$eval('[data-testid="order-partner-process"]', (e) => e.textContent ?? '')).toMatch(
      /PR-\d+/,
    );
    expect(await page.$('[data-testid="order-partner-error"]')).toBeNull();
    await shot('order-partner-sent');
  });

  it('sends a sent order again only after a confirmation, and the partner keeps one order', async () => {
    await page.click('[data-testid="order-partner-force"]');
    await page.waitForSelector('[role="alertdialog"]', { visible: true });
    const creates = partner.count('transactions.create');
    const buttons = await page.$$('[role="alertdialog"] button');
    await buttons[buttons.length - 1]!.click();
    const deadline = Date.now() + 30_000;
    while (partner.count('transactions.create') === creates && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(partner.count('transactions.create')).toBe(creates + 1);
    await waitFor(
      () =>
        document.querySelector('[data-testid="order-partner-status"]')?.getAttribute('data-status') ===
        'pushed',
    );
    expect(partner.transactions).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('shows the partner settings without the password and refuses a bad supplier code', async () => {
    await page.goto(`${base}/app/parameters`);
    await page.waitForSelector('[data-testid="partner-settings"]');
    expect(await page.$eval('[data-testid="partner-enabled"]', (e) => e.getAttribute('aria-checked'))).toBe(
      'true',
    );
    expect(await page.$eval('#partner-base_url', (e) => (e as HTMLInputElement).value)).toBe(partner.url);
    expect(await page.$eval('#partner-password', (e) => (e as HTMLInputElement).value)).toBe('');
    expect(await page.content()).not.toContain('Partner-Pass-2026');
    await page.$eval('#partner-supplier_codes', (e) => (e as HTMLInputElement).select());
    await page.type('#partner-supplier_codes', '3');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await page.click('[data-testid="partner-save"]');
    await page.waitForSelector('[data-testid="partner-supplier_codes-error"]');
    expect(await page.$eval('[data-testid="partner-supplier_codes-error"]', (e) => e.textContent)).toContain(
      '3',
    );
    expect(puts).toEqual([]);
    await shot('parameters-partner');
    expect(problems).toEqual([]);
  });
});
