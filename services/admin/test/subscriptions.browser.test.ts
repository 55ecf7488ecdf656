import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commerceActorCheck, useActorCheck } from '@aplt/http';
import { allFeaturesClient, HttpLicenseClient } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import { buildApp as buildAuth } from '@aplt/service-auth/app';
import { loadConfig as authConfig } from '@aplt/service-auth/config';
import { buildApp as buildDocuments } from '@aplt/service-documents/app';
import { loadConfig as documentsConfig } from '@aplt/service-documents/config';
import { seedTenantLicenses } from '@aplt/service-access/seed';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  createTestRedis,
  launchChromium,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { seedDocuments } from '../../../deploy/fleet/seeds/documents';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { pickCustomer } from './customer-picker';
import { ensureWebBuild, webDist } from './web-build';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/admin/', import.meta.url));
const quiet = { info: () => {}, warn: () => {} };

/**
 * The subscriptions pages in Chromium through the real proxy: create a subscription with two
 * lines for a demo customer, pause and resume it, switch the monthly billing on (its scheduler
 * appears in Redis), run the billing for the start date and find the invoice on the run and on
 * the subscription.
 */
describe('the subscriptions pages in Chromium through the real proxy', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let queues: QueueClient;
  let proxy: TestProxy;
  let licenses: HttpLicenseClient;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let page: Page;
  let base: string;
  let cacheDir: string;
  const problems: string[] = [];
  let startDate = '';

  async function waitFor(fn: (...a: never[]) => unknown, ...args: unknown[]) {
    try {
      return await page.waitForFunction(fn as never, { timeout: 60_000, polling: 100 }, ...(args as never[]));
    } catch (err) {
      const shown = await page
        .evaluate(() => document.querySelector('main')?.innerText.slice(0, 800) ?? '')
        .catch(() => '');
      throw new Error(`${String(err)}\nat ${page.url()}\nthe page shows: ${shown}`);
    }
  }
  async function at(path: string) {
    await waitFor((p: string) => location.pathname + location.search === p, path).catch(() => {
      throw new Error(`expected ${path}, the page is at ${new URL(page.url()).pathname}`);
    });
  }
  async function shot(name: string) {
    const height = await page.evaluate(() => {
      document.querySelector('main')?.scrollTo({ top: 0 });
      document
        .querySelectorAll<HTMLElement>('[data-sonner-toaster]')
        .forEach((t) => (t.style.display = 'none'));
      return (document.querySelector('main')?.scrollHeight ?? 800) + 48;
    });
    await page.setViewport({ width: 1440, height: Math.min(Math.max(900, height), 4000) });
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    await page.setViewport({ width: 1440, height: 900 });
    await page.evaluate(() =>
      document.querySelectorAll<HTMLElement>('[data-sonner-toaster]').forEach((t) => (t.style.display = '')),
    );
  }
  const text = (selector: string) => page.$eval(selector, (e) => e.textContent ?? '');
  async function typeInto(selector: string, value: string) {
    const el = (await page.waitForSelector(selector, { visible: true }))!;
    await el.click({ clickCount: 3 });
    await el.type(value);
  }
  /** Sets a React-controlled input (date inputs type differently per locale). */
  async function setValue(selector: string, value: string) {
    await page.waitForSelector(selector);
    await page.$eval(
      selector,
      (el, v) => {
        const input = el as HTMLInputElement;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      value,
    );
  }
  async function pickOption(label: string) {
    await waitFor(
      (want: string) =>
        [...document.querySelectorAll('[role="option"]')].some((o) => o.textContent?.includes(want)),
      label,
    );
    for (const o of await page.$$('[role="option"]'))
      if ((await o.evaluate((e) => e.textContent ?? '')).includes(label)) {
        await o.click();
        return;
      }
  }

  beforeAll(async () => {
    ensureWebBuild();
    mkdirSync(SHOTS, { recursive: true });
    fleet = await createTestFleet([{ id: 'acme' }]);
    redis = await createTestRedis();
    const secrets = testSecrets();
    const env = { ...process.env, ...fleet.env, ...secrets, LOG_LEVEL: 'silent' } as Record<string, string>;
    const seedCtx = {
      registry: fleet.registry,
      databases: fleet.databases,
      env,
      log: () => {},
    } as unknown as SeedContext;
    await seedAdminUsers(seedCtx);
    await seedDocuments(seedCtx);

    const access = await createAccessAppForTest(
      fleet.registry,
      { REDIS_PREFIX: redis.prefix },
      { redis: redis.redis },
    );
    await seedTenantLicenses(access.accessDb!, ['acme'], ['crm']);
    await access.listen({ port: 0, host: '127.0.0.1' });
    const accessUrl = `http://127.0.0.1:${(access.server.address() as AddressInfo).port}`;
    cacheDir = mkdtempSync(join(tmpdir(), 'subscriptions-licenses-'));
    licenses = new HttpLicenseClient({
      apiUrl: accessUrl,
      serviceToken: secrets.SERVICE_TOKEN,
      cacheDir,
      refreshSeconds: 60,
      redis: { url: redis.url, prefix: redis.prefix },
      logger: quiet,
    });
    await licenses.start(['acme']);
    const deps = { registry: fleet.registry, databases: fleet.databases };
    const admin = await buildApp(
      { ...deps, licenses },
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
    queues = new QueueClient(createRedis(redis.url), redis.prefix);
    const documents = await buildDocuments(
      { ...deps, licenses: allFeaturesClient, queues },
      documentsConfig({ ...env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }),
    );
    const listening = { listen: async () => accessUrl, server: access.server, close: () => access.close() };
    proxy = await startTestProxy({ access: listening, auth, admin, documents });
    base = `http://acme.localhost:${proxy.port}`;
    chromium = await launchChromium();
    browser = chromium.browser;
    page = await browser.newPage();
    await page.setViewport({ width: 1440, height: 900 });
    page.on('pageerror', (err) => {
      if (String(err).includes('AbortError: signal is aborted without reason')) return;
      problems.push(`pageerror: ${String(err)} @ ${page.url()}`);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(`console: ${msg.text()}`);
    });
  }, 240_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page)
      await page
        .screenshot({
          path: join(tmpdir(), `subscriptions-failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`),
        })
        .catch(() => {});
  });

  afterAll(async () => {
    await chromium?.close();
    await proxy?.stop();
    await queues?.close();
    await licenses?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  it('creates a subscription with two lines; the form checks its input before sending', async () => {
    await page.goto(`${base}/app/login?redirect=%2Fsubscriptions`);
    await page.waitForSelector('[data-testid="login-form"]');
    await page.type('input[name="email"]', demoAdmin.email);
    await page.type('input[name="password"]', demoAdmin.password);
    await page.click('[data-testid="login-submit"]');
    await at('/app/subscriptions');
    await page.waitForSelector('[data-testid="subscription-table"]');
    await waitFor(() =>
      document.querySelector('[data-testid="billing-next-run"]')?.textContent?.includes('Uit'),
    );

    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/admin/aplt/subscriptions')
        posts.push(r.url());
    });
    await page.click('[data-testid="subscription-new"]');
    await at('/app/subscriptions/create');
    await page.waitForSelector('[data-testid="subscription-form"]');
    // Nothing filled in: the schema stops it in the page.
    await page.click('[data-testid="subscription-save"]');
    await waitFor(
      () => document.querySelectorAll('[data-testid="subscription-form"] [aria-invalid="true"]').length > 0,
    );
    expect(posts).toEqual([]);

    await pickCustomer(
      page,
      {
        search: () => typeInto('[data-testid="customer-picker"] input', 'Bakker'),
        pick: () => pickOption('Bakker Bouw BV'),
      },
      'Bakker Bouw BV',
    );
    await typeInto('[data-testid="subscription-description"]', 'Onderhoud webshop');
    await page.click('[data-testid="subscription-interval"]');
    await pickOption('Per kwartaal');
    startDate = await page.$eval('input[name="start_date"]', (e) => (e as HTMLInputElement).value);
    expect(startDate).toMatch(/^\d{4}-\d{2}-01$/);
    await typeInto('input[name="lines.0.description"]', 'Hosting en onderhoud');
    await typeInto('input[name="lines.0.quantity"]', '2');
    await typeInto('input[name="lines.0.unit_price"]', '49.50');
    await page.click('[data-testid="subscription-add-line"]');
    await typeInto('input[name="lines.1.description"]', 'Extra opslag');
    await typeInto('input[name="lines.1.unit_price"]', '10');
    await typeInto('input[name="lines.1.discount_percent"]', '10');
    await waitFor(() =>
      document.querySelector('[data-testid="subscription-form-total"]')?.textContent?.includes('108,00'),
    );
    // Every box filled in correctly: no field is marked after leaving the last one.
    await page.click('[data-testid="subscription-form-total"]');
    await waitFor(
      () => document.querySelectorAll('[data-testid="subscription-form"] [aria-invalid="true"]').length === 0,
    );
    await shot('subscription-create');
    await page.click('[data-testid="subscription-save"]');
    await waitFor(() => /^\/app\/subscriptions\/\d+$/.test(location.pathname));
    await page.waitForSelector('[data-testid="subscription-detail"]');
    expect(posts).toHaveLength(1);
    expect(await text('[data-testid="subscription-customer"]')).toContain('Bakker Bouw BV');
    expect(await text('[data-testid="subscription-amount"]')).toContain('108,00');
    expect(await text('[data-testid="subscription-status"] [data-status]')).toBe('Gepland');
  });

  it('pauses and resumes it', async () => {
    await page.click('[data-testid="subscription-pause"]');
    await waitFor(
      () =>
        document.querySelector('[data-testid="subscription-status"] [data-status]')?.textContent ===
        'Gepauzeerd',
    );
    // The button says resume as soon as the detail is refetched, but stays disabled (loading) until
    // the pause's list refetch is done too; a click before that does nothing.
    await page.waitForSelector('[data-testid="subscription-resume"]:not([disabled])');
    await page.click('[data-testid="subscription-resume"]');
    await waitFor(
      () =>
        document.querySelector('[data-testid="subscription-status"] [data-status]')?.textContent ===
        'Gepland',
    );
  });

  it('switches the monthly billing on, runs it for the start date and shows the invoice', async () => {
    await page.goto(`${base}/app/subscriptions`);
    await page.waitForSelector('[data-testid="billing-enabled"]');
    await waitFor(
      () =>
        document.querySelectorAll('[data-testid="subscription-table"] tbody tr[data-row-index]').length === 1,
    );
    await page.click('[data-testid="billing-enabled"]');
    await waitFor(() =>
      document.querySelector('[data-testid="billing-next-run"]')?.textContent?.includes('Volgende run'),
    );
    const schedulers = await queues.queue('documents').getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.pattern])).toEqual([['subscriptions.bill:acme', '0 8 1 * *']]);

    await setValue('[data-testid="billing-date"]', startDate);
    await page.click('[data-testid="billing-run"]');
    await waitFor(() => document.querySelectorAll('[data-testid="billing-run-row"]').length === 1);
    const row = await text('[data-testid="billing-run-row"]');
    expect(row).toMatch(/F-\d{4}-\d{4}/);
    expect(row).toContain('Geslaagd');
    await shot('subscriptions');

    // A second run for the same date invoices nothing again.
    await page.click('[data-testid="billing-run"]');
    await waitFor(() => document.querySelectorAll('[data-testid="billing-run-row"]').length === 2);
    expect(await text('[data-testid="billing-run-row"]')).not.toMatch(/F-\d{4}-\d{4}/);

    await page.click('[data-testid="subscription-table"] tbody tr[data-row-index]');
    await page.waitForSelector('[data-testid="subscription-invoices"]');
    expect(await text('[data-testid="subscription-invoices"]')).toMatch(/F-\d{4}-\d{4}/);
    expect(await text('[data-testid="subscription-status"] [data-status]')).toBe('Gepland');
    await shot('subscription-detail');

    // A click on the element, not at its coordinates: the detail page may still move (its queries
    // settle) between finding the link and the mouse click, which then hits something else.
    await page.$eval('[data-testid="subscription-edit"]', (e) => (e as HTMLElement).click());
    await page.waitForSelector('[data-testid="subscription-edit-page"] input[name="lines.1.description"]');
    expect(await page.$eval('input[name="lines.0.unit_price"]', (e) => (e as HTMLInputElement).value)).toBe(
      '49.50',
    );
    expect(problems).toEqual([]);
  });
});
