import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from '@aplt/db';
import { commerceActorCheck, useActorCheck } from '@aplt/http';
import { allFeaturesClient, HttpLicenseClient } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import { createUser, seedTenantLicenses } from '@aplt/service-access/seed';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildAuth } from '@aplt/service-auth/app';
import { loadConfig as authConfig } from '@aplt/service-auth/config';
import { buildApp as buildCatalog } from '@aplt/service-catalog/app';
import { loadConfig as catalogConfig } from '@aplt/service-catalog/config';
import { buildApp as buildDevprojects } from '@aplt/service-devprojects/app';
import { loadConfig as devprojectsConfig } from '@aplt/service-devprojects/config';
import { GitRepositories } from '@aplt/service-devprojects/git';
import { buildApp as buildDocuments } from '@aplt/service-documents/app';
import { loadConfig as documentsConfig } from '@aplt/service-documents/config';
import { buildApp as buildGatekeeper } from '@aplt/service-gatekeeper/app';
import { loadConfig as gatekeeperConfig } from '@aplt/service-gatekeeper/config';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { ensureWebBuild, webDist } from './web-build';

/** Screenshots of the operations pages, for people to look at (README: "Admin panel"). */
const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/admin/', import.meta.url));
const FEED = fileURLToPath(new URL('../../catalog/test/fixtures/01/products.json', import.meta.url));
const quiet = { info: () => {}, warn: () => {} };

/**
 * A supplier host that sends the first `held` bytes of the catalog tests' fixture feed with its
 * full length, then the rest only on release(): the run stays in the middle until the test has
 * seen the progress bar there, so nothing is raced.
 */
async function startHeldFeed(file: string, held: number) {
  const body = await readFile(file);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.write(body.subarray(0, held));
    void released.then(() => res.end(body.subarray(held)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/products.json`,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The operations pages in Chromium through the real proxy: a master tenant (connectors run
 * there) and acme (a tenant without `ai_assist`), with the access, auth, admin, catalog
 * (workers in process), documents, gatekeeper and devprojects services behind Caddy.
 */
describe('the operations pages of the admin panel in Chromium through the real proxy', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let proxy: TestProxy;
  let licenses: HttpLicenseClient;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let feed: Awaited<ReturnType<typeof startHeldFeed>>;
  let queueRedis: ReturnType<typeof createRedis>;
  let tmp: string;
  const problems: string[] = [];
  const base = (tenant: string) => `http://${tenant}.localhost:${proxy.port}`;

  async function newPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 860 });
    page.on('pageerror', (err) => problems.push(`pageerror: ${String(err)}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(`console: ${msg.text()}`);
    });
    return page;
  }
  const waitFor = (page: Page, fn: string, timeout = 60_000) =>
    page.waitForFunction(fn, { polling: 100, timeout });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  /** Signs in on the tenant's host and lands on `path`. */
  async function signedIn(tenant: string, path: string): Promise<Page> {
    const page = await newPage();
    await page.goto(`${base(tenant)}/app/login?redirect=${encodeURIComponent(path)}`);
    await page.waitForSelector('[data-testid="login-form"]');
    await page.type('input[name="email"]', demoAdmin.email);
    await page.type('input[name="password"]', demoAdmin.password);
    await page.click('[data-testid="login-submit"]');
    const want = path === '/' ? '/app' : `/app${path}`;
    await waitFor(
      page,
      `location.pathname.replace(/\\/$/, '') + location.search === ${JSON.stringify(want)}`,
    );
    return page;
  }

  /** An admin token of the tenant through the real sign-in route, for setting up records. */
  async function apiToken(tenant: string): Promise<string> {
    const res = await proxy.request(`${tenant}.localhost`, '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(res.status, res.text()).toBe(200);
    return res.json().token as string;
  }

  beforeAll(async () => {
    if (!process.env.ADMIN_WEB_DIST) ensureWebBuild();
    mkdirSync(SHOTS, { recursive: true });
    tmp = mkdtempSync(join(tmpdir(), 'admin-operations-'));
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }]);
    await seedAdminUsers({
      registry: fleet.registry,
      databases: fleet.databases,
      log: () => {},
    } as unknown as SeedContext);
    redis = await createTestRedis();
    const secrets = testSecrets();
    const env = {
      ...process.env,
      ...fleet.env,
      ...secrets,
      LOG_LEVEL: 'silent',
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
    };

    // Supplier 01 of the master reads its products feed from the held feed host.
    feed = await startHeldFeed(FEED, 1000);
    const masterDb = fleet.databases.aplt((await fleet.registry.get('master'))!);
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
      VALUES ('01', 'Supplier 01', 'json', ${JSON.stringify({ feeds: { products: feed.url } })}::jsonb)`.execute(
      masterDb,
    );

    const access = await createAccessAppForTest(
      fleet.registry,
      { REDIS_PREFIX: redis.prefix },
      { redis: redis.redis },
    );
    // Every feature on the master; acme has all but the AI add-on.
    await seedTenantLicenses(access.accessDb!, ['master'], []);
    await seedTenantLicenses(access.accessDb!, ['acme'], ['ai_assist']);
    await createUser(
      { db: access.accessDb! },
      { email: 'ops@aplt.test', password: 'Correct-Horse-42!', roles: [] },
    );
    await access.listen({ port: 0, host: '127.0.0.1' });
    const accessUrl = `http://127.0.0.1:${(access.server.address() as AddressInfo).port}`;
    licenses = new HttpLicenseClient({
      apiUrl: accessUrl,
      serviceToken: secrets.SERVICE_TOKEN,
      cacheDir: join(tmp, 'licenses'),
      refreshSeconds: 60,
      redis: { url: redis.url, prefix: redis.prefix },
      logger: quiet,
    });
    await licenses.start(['master', 'acme']);
    const deps = { registry: fleet.registry, databases: fleet.databases };
    const admin = await buildApp(
      { ...deps, licenses },
      loadConfig({ ...secrets, LOG_LEVEL: 'silent', ADMIN_WEB_DIST: process.env.ADMIN_WEB_DIST ?? webDist }),
    );
    useActorCheck(admin, commerceActorCheck(fleet.databases));
    const backends = { ...deps, licenses: allFeaturesClient };
    const auth = await buildAuth(
      backends,
      authConfig({
        ...env,
        MAIL_PASSWORD: 'x'.repeat(32),
        MAIL_FROM_NAME: 'Ops',
        MAIL_FROM_ADDRESS: 'ops@acme.localhost',
      }),
    );
    const catalog = await buildCatalog(backends, catalogConfig({ ...env, CATALOG_RUN_WORKERS: 'true' }));
    const documents = await buildDocuments(backends, documentsConfig(env));
    const gatekeeper = await buildGatekeeper(backends, gatekeeperConfig(env));
    const dpConfig = devprojectsConfig({
      ...env,
      DEVPROJECTS_GIT_DIR: join(tmp, 'repos'),
      DEVPROJECTS_REBUILD_WORKER: 'false',
    });
    queueRedis = createRedis(redis.url);
    const devprojects = await buildDevprojects(
      {
        ...backends,
        git: new GitRepositories(dpConfig.DEVPROJECTS_GIT_DIR, {
          name: dpConfig.DEVPROJECTS_BOT_NAME,
          email: dpConfig.DEVPROJECTS_BOT_EMAIL,
        }),
        queue: new QueueClient(queueRedis, redis.prefix),
      },
      dpConfig,
    );
    for (const app of [catalog, documents, gatekeeper, devprojects])
      useActorCheck(app, commerceActorCheck(fleet.databases));
    const listening = { listen: async () => accessUrl, server: access.server, close: () => access.close() };
    proxy = await startTestProxy({
      access: listening,
      auth,
      admin,
      catalog,
      documents,
      gatekeeper,
      devprojects,
    });
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 120_000);

  afterAll(async () => {
    feed?.release();
    await chromium?.close();
    await proxy?.stop();
    await licenses?.close();
    queueRedis?.disconnect();
    await feed?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('runs a connector on the master and follows its progress bar to 100 %', async () => {
    const page = await signedIn('master', '/connectors');
    await page.waitForSelector('[data-connector="01_products"]');
    expect(
      await page.$$eval('[data-testid="connector-table"] tbody tr[data-connector]', (r) => r.length),
    ).toBe(32);
    expect(await page.$('[data-testid="connectors-read-only"]')).toBeNull();
    await page.click('[data-testid="run-01_products"]');

    // The feed host holds the rest of the file: the bar stands in the middle while the run works.
    const bar = '[data-connector="01_products"] [data-testid="run-progress"]';
    await waitFor(
      page,
      `(() => { const e = document.querySelector('${bar}'); return e && e.dataset.status === 'running' && Number(e.dataset.percent) > 0 && Number(e.dataset.percent) < 100; })()`,
    );
    const middle = Number(await page.$eval(bar, (e) => (e as HTMLElement).dataset.percent));
    expect(middle).toBeGreaterThan(0);
    expect(middle).toBeLessThan(100);
    expect(await page.$eval(`${bar} [role="progressbar"]`, (e) => e.getAttribute('aria-valuenow'))).toBe(
      String(Math.round(middle)),
    );
    await shot(page, 'connectors-running');

    // The rest of the feed arrives: the same page, polling the run, reaches 100 %.
    feed.release();
    await waitFor(
      page,
      `(() => { const e = document.querySelector('${bar}'); return e && e.dataset.status === 'succeeded' && e.dataset.percent === '100'; })()`,
    );
    expect(await page.$eval(`${bar} [data-testid="run-percent"]`, (e) => e.textContent)).toBe('100%');
    await shot(page, 'connectors');

    // The run's own page: figures and rejected rows.
    await page.click('[data-connector="01_products"] a[href*="/connectors/runs/"]');
    await page.waitForSelector('[data-testid="run-detail"] [data-testid="run-progress"][data-percent="100"]');
    await page.waitForSelector('[data-testid="run-rejected"]');
    await shot(page, 'connector-run');

    // Tenant update: only on the master's host, with the tenants to choose from.
    await page.goto(`${base('master')}/app/product-copy`);
    await page.waitForSelector('[data-testid="tenant-update-tenants"] [data-tenant="acme"]');
    await page.close();
  });

  it('shows connectors read-only on a tenant, and no AI assistant without ai_assist', async () => {
    const page = await signedIn('acme', '/connectors');
    await page.waitForSelector('[data-testid="connectors-read-only"]');
    await page.waitForSelector('[data-connector="01_products"]');
    expect(await page.$('[data-testid^="run-0"]')).toBeNull();
    await page.goto(`${base('acme')}/app/product-copy`);
    await page.waitForSelector('[data-testid="tenant-update-master-only"]');
    // The topbar has no assistant on acme; the master (licensed) has it.
    await page.waitForSelector('[data-testid="breadcrumbs"]');
    expect(await page.$('[data-testid="ai-open"]')).toBeNull();
    await page.close();

    const master = await signedIn('master', '/');
    await master.waitForSelector('[data-testid="ai-open"]');
    await master.click('[data-testid="ai-open"]');
    await master.waitForSelector('[data-testid="ai-panel"] textarea');
    await master.type('[data-testid="ai-ask"] textarea', 'Hoeveel staat er open bij klanten?');
    await master.click('[data-testid="ai-ask"] button[type="submit"]');
    await master.waitForSelector(
      '[data-testid="ai-answer"], [data-testid="ai-ask"] [data-testid="error-alert"]',
    );
    expect(await master.$('[data-testid="ai-answer"]')).not.toBeNull();
    await shot(master, 'ai-assistant');
    await master.close();
  });

  it('approves an access request', async () => {
    const filed = await proxy.request('acme.localhost', '/store/access-request', {
      method: 'POST',
      body: { name: 'Jan Bezoeker', email: 'jan@shop.test', company: 'Shop BV', message: 'Graag toegang' },
    });
    expect(filed.status).toBe(201);
    const id = filed.json().id as number;
    const page = await signedIn('acme', '/access-requests');
    await page.waitForSelector(`[data-testid="approve-${id}"]`);
    await shot(page, 'access-requests');
    await page.click(`[data-testid="approve-${id}"]`);
    // Approved requests leave the open list, and the visitor has access.
    await waitFor(page, `!document.querySelector('[data-testid="approve-${id}"]')`);
    const check = await proxy.request('acme.localhost', '/store/access-check');
    expect(check.json()).toMatchObject({ has_access: true, status: 'approved' });
    await page.goto(`${base('acme')}/app/access-requests?status=approved`);
    await page.waitForSelector('[data-testid="access-request-table"] [data-status="approved"]');
    await page.close();
  });

  it('opens a dev project from the portal deep link, with its commits and diff', async () => {
    const token = await apiToken('acme');
    const headers = { authorization: `Bearer ${token}` };
    const created = await proxy.request('acme.localhost', '/admin/dev-projects', {
      method: 'POST',
      headers,
      body: { name: 'Nieuwe zoekfunctie', project_type: 'feature', description: 'Zoeken op SKU' },
    });
    expect(created.status, created.text()).toBe(201);
    const project = created.json().dev_project as { id: number; project_code: string };
    const commit = await proxy.request('acme.localhost', '/admin/dev-projects/commit', {
      method: 'POST',
      headers,
      body: {
        project_id: project.id,
        message: 'Zoeken op SKU toevoegen',
        files: [{ file_path: 'src/search.ts', content: 'export const search = (sku: string) => sku;\n' }],
      },
    });
    expect(commit.status, commit.text()).toBe(201);

    const page = await signedIn('acme', `/settings/dev-projects?code=${project.project_code}`);
    await page.waitForSelector(`[data-testid="dev-projects"][data-code="${project.project_code}"]`);
    await page.waitForSelector('[data-testid="dev-project-detail"]');
    expect(await page.$eval('[data-testid="dev-project-detail"] h1', (e) => e.textContent)).toBe(
      `${project.project_code} · Nieuwe zoekfunctie`,
    );
    await page.waitForSelector('[data-testid="commit-table"]');
    expect(await page.$eval('[data-testid="commit-table"] tbody', (e) => e.textContent)).toContain(
      'Zoeken op SKU toevoegen',
    );
    await page.waitForSelector('[data-testid="diff-patch"]');
    expect(await page.$eval('[data-testid="diff-patch"]', (e) => e.textContent)).toContain(
      '+export const search = (sku: string) => sku;',
    );
    await shot(page, 'dev-project');
    // An unknown code says so instead of a blank page.
    await page.goto(`${base('acme')}/app/settings/dev-projects?code=DP-9999`);
    await page.waitForSelector('[data-testid="dev-project-missing"]');
    await page.close();
  });

  it('edits a customer and a parameter and shows the change', async () => {
    const token = await apiToken('acme');
    const created = await proxy.request('acme.localhost', '/admin/aplt/customers', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: { company: 'Drukwerk De Vries', email: 'inkoop@devries.test', country: 'NL', city: 'Utrecht' },
    });
    expect(created.status, created.text()).toBe(201);
    const customer = created.json() as { id: number };

    const page = await signedIn('acme', '/customers');
    await page.waitForSelector('[data-testid="customer-table"] tbody tr[data-row-index]');
    await shot(page, 'customers');
    // Keyboard: the row takes the focus and Enter opens it.
    await page.focus('[data-testid="customer-table"] tbody tr[data-row-index="0"]');
    await page.keyboard.press('Enter');
    await waitFor(page, `location.pathname === '/app/customers/${customer.id}'`);
    await page.waitForSelector('[data-testid="customer-detail"]');

    await page.click('[data-testid="customer-edit-open"]');
    await page.waitForSelector('[data-testid="customer-edit"] input[name="company"]');
    // A malformed e-mail address is refused before anything is sent.
    await page.$eval('[data-testid="customer-edit"] input[name="email"]', (e) =>
      (e as HTMLInputElement).select(),
    );
    await page.type('[data-testid="customer-edit"] input[name="email"]', 'not-an-address');
    await page.click('[data-testid="customer-save"]');
    await page.waitForSelector('[data-testid="error-email"]');
    await page.$eval('[data-testid="customer-edit"] input[name="email"]', (e) =>
      (e as HTMLInputElement).select(),
    );
    await page.type('[data-testid="customer-edit"] input[name="email"]', 'orders@devries.test');
    await page.$eval('[data-testid="customer-edit"] input[name="company"]', (e) =>
      (e as HTMLInputElement).select(),
    );
    await page.type('[data-testid="customer-edit"] input[name="company"]', 'Drukwerk De Vries & Zn');
    await page.click('[data-testid="customer-save"]');
    await waitFor(page, `!document.querySelector('[data-testid="customer-edit"]')`);
    await waitFor(
      page,
      `document.querySelector('[data-testid="customer-company"]')?.textContent === 'Drukwerk De Vries & Zn'`,
    );
    expect(await page.$eval('[data-testid="customer-email"]', (e) => e.textContent)).toBe(
      'orders@devries.test',
    );
    await shot(page, 'customer');

    // Parameters: a bad amount is refused in the form; a good one is saved and in effect.
    await page.goto(`${base('acme')}/app/parameters`);
    await page.waitForSelector('[data-testid="parameter-form"] input[name="franco_limit"]');
    await page.$eval('input[name="franco_limit"]', (e) => (e as HTMLInputElement).select());
    await page.type('input[name="franco_limit"]', '12,5');
    await page.click('[data-testid="parameters-save"]');
    await page.waitForSelector('[data-testid="error-franco_limit"]');
    await page.$eval('input[name="franco_limit"]', (e) => (e as HTMLInputElement).select());
    await page.type('input[name="franco_limit"]', '999.50');
    await page.click('[data-testid="parameters-save"]');
    await waitFor(
      page,
      `document.querySelector('[data-testid="effective-franco_limit"]')?.textContent?.includes('999,50')`,
    );
    await shot(page, 'parameters');
    await page.reload();
    await waitFor(page, `document.querySelector('input[name="franco_limit"]')?.value === '999.50'`);
    await page.close();
  });

  it('every operations page of the sidebar opens a page (screenshots)', async () => {
    const page = await signedIn('master', '/suppliers');
    const pages: Array<[string, string, string]> = [
      ['/suppliers', '[data-testid="supplier-table"] tbody tr[data-row-index]', 'suppliers'],
      ['/technique-pricing', '[data-testid="technique-pricing"]', 'technique-pricing'],
      ['/products', '[data-testid="product-table"] tbody tr[data-row-index]', 'products'],
      ['/sales-channel-products', '[data-testid="commerce-sync-start"]', 'sales-channel-products'],
      ['/cms', '[data-testid="cms-settings-table"]', 'cms'],
      ['/cms-modules', '[data-testid="module-table"]', 'cms-modules'],
      ['/brand-wizard', '[data-testid="brand-table"]', 'brand-wizard'],
      ['/page-manager', '[data-testid="page-table"]', 'page-manager'],
      ['/menu-manager', '[data-testid="menu-table"]', 'menu-manager'],
      ['/translations', '[data-testid="translation-table"]', 'translations'],
      ['/crm', '[data-testid="crm-customers"]', 'crm'],
      ['/settings/dev-projects', '[data-testid="dev-project-table"]', 'dev-projects'],
    ];
    for (const [path, selector, name] of pages) {
      await page.goto(`${base('master')}/app${path}`);
      await page.waitForSelector(selector);
      expect(await page.$('[data-testid="area-placeholder"]'), path).toBeNull();
      expect(await page.$('[data-testid="error-panel"]'), path).toBeNull();
      await shot(page, name);
    }
    // A supplier's page from its row.
    await page.goto(`${base('master')}/app/suppliers`);
    await page.waitForSelector('[data-testid="supplier-table"] tbody tr[data-row-index="0"]');
    await page.click('[data-testid="supplier-table"] tbody tr[data-row-index="0"]');
    await page.waitForSelector('[data-testid="supplier-detail"] [data-testid="supplier-edit-open"]');
    await shot(page, 'supplier');
    await page.close();
    expect(problems).toEqual([]);
  });
});
