import { allFeaturesClient } from '@aplt/licensing';
import { routeTable } from '@aplt/proxy';
import { buildApp as buildAuth } from '@aplt/service-auth/app';
import { loadConfig as authConfig } from '@aplt/service-auth/config';
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
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

/** What a browser sends when an address is typed or a link followed. */
const navigation = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'sec-fetch-mode': 'navigate' };

describe('queue dashboard (Bull Board) for operators in a browser', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let proxy: TestProxy;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }, { id: 'acme' }]);
    // The demo admin (same e-mail and password) in every tenant's commerce DB.
    await seedAdminUsers({
      registry: fleet.registry,
      databases: fleet.databases,
      log: () => {},
    } as unknown as SeedContext);
    redis = await createTestRedis();
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    const shared = {
      LOG_LEVEL: 'silent',
      ...testSecrets(),
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
    };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      // No mail is sent here; the SMTP address only has to parse.
      auth: await buildAuth(deps, authConfig(shared)),
      catalog: await buildApp(deps, loadConfig({ ...fleet.env, ...shared })),
    });
  }, 60_000);

  afterAll(async () => {
    await proxy?.stop();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  /** Medusa's admin sign-in on `host`: a token, then the `connect.sid` cookie for it. */
  const signIn = async (host: string): Promise<string> => {
    const login = await proxy.request(host, '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    const session = await proxy.request(host, '/auth/session', {
      method: 'POST',
      headers: { authorization: `Bearer ${login.json().token}` },
    });
    expect(session.status, session.text()).toBe(200);
    const cookie = [session.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('connect.sid='));
    return cookie!.split(';')[0]!;
  };

  it('is routed to the catalog service behind forward auth', () => {
    expect(routeTable.find((r) => r.host === 'tenant' && r.prefix === '/admin/queues')).toEqual({
      host: 'tenant',
      prefix: '/admin/queues',
      service: 'catalog',
      forwardAuth: true,
    });
  });

  it('answers a browser without a session with a sign-in page (401), scripts and the API with JSON', async () => {
    const page = await proxy.request('master.localhost', '/admin/queues', { headers: navigation });
    expect(page.status).toBe(401);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self'/);
    const html = page.text();
    expect(html).toContain('<form id="sign-in"');
    expect(html).toContain("'/auth/user/emailpass'");
    expect(html).toContain("'/auth/session'");
    expect(html).not.toContain('id="expired"');

    const script = await proxy.request('master.localhost', '/admin/queues');
    expect(script.status).toBe(401);
    expect(script.json()).toEqual({ type: 'unauthorized', message: 'Unauthorized' });
    const api = await proxy.request('master.localhost', '/admin/queues/api/queues', {
      headers: { accept: 'application/json', 'sec-fetch-mode': 'cors' },
    });
    expect(api.status).toBe(401);
    expect(api.json()).toMatchObject({ type: 'unauthorized' });

    // A cookie that no longer verifies: the same page, saying why.
    const stale = await proxy.request('master.localhost', '/admin/queues/queue/connectors', {
      headers: { ...navigation, cookie: 'connect.sid=eyJhbGciOiJIUzI1NiJ9.e30.bad' },
    });
    expect(stale.status).toBe(401);
    expect(stale.text()).toContain('id="expired"');
  });

  it('serves the board and its API to the master admin with the session cookie alone', async () => {
    const cookie = await signIn('master.localhost');
    const page = await proxy.request('master.localhost', '/admin/queues', {
      headers: { ...navigation, cookie },
    });
    expect(page.status).toBe(200);
    expect(page.text()).toContain('__UI_CONFIG__');
    expect(page.text()).toContain('Catalog queues');
    const api = await proxy.request('master.localhost', '/admin/queues/api/queues', { headers: { cookie } });
    expect(api.status, api.text()).toBe(200);
    expect(api.json().queues.map((q: { name: string }) => q.name)).toEqual(
      expect.arrayContaining(['connectors', 'commerce-sync', 'tenant-update']),
    );

    // A state-changing call from a page of another host of the same site carries the cookie too
    // (SameSite does not stop it): refused. From the board's own origin it goes through.
    const pause = (headers: Record<string, string>) =>
      proxy.request('master.localhost', '/admin/queues/api/queues/connectors/pause', {
        method: 'PUT',
        headers: { cookie, ...headers },
      });
    const crossSite = await pause({ 'sec-fetch-site': 'same-site', origin: 'http://modal.localhost' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json()).toMatchObject({ type: 'not_allowed' });
    expect((await pause({ origin: 'http://acme.localhost' })).status).toBe(403);
    expect((await pause({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const resume = await proxy.request('master.localhost', '/admin/queues/api/queues/connectors/resume', {
      method: 'PUT',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(resume.status).toBe(200);
  });

  it('is not served on another tenant host, even to its admin: the page points to the master host', async () => {
    const cookie = await signIn('acme.localhost');
    const page = await proxy.request('acme.localhost', '/admin/queues', {
      headers: { ...navigation, cookie },
    });
    expect(page.status).toBe(403);
    expect(page.text()).toContain('href="http://master.localhost/admin/queues"');
    const api = await proxy.request('acme.localhost', '/admin/queues/api/queues', { headers: { cookie } });
    expect(api.status).toBe(403);
    expect(api.json()).toMatchObject({ type: 'not_allowed' });
    // And the master's board does not take the acme session.
    const master = await proxy.request('master.localhost', '/admin/queues/api/queues', {
      headers: { cookie },
    });
    expect(master.status).toBe(401);
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let chromium: Awaited<ReturnType<typeof launchChromium>>;

    beforeAll(async () => {
      chromium = await launchChromium();
      browser = chromium.browser;
    });
    afterAll(async () => {
      await chromium?.close();
    });

    it('signs in on the page, shows the queues, and signs out again', async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(90_000); // a starved renderer under the full parallel run
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(String(err)));
      const url = `http://master.localhost:${proxy.port}/admin/queues/queue/connectors`;
      expect((await page.goto(url))!.status()).toBe(401);

      await page.type('#email', demoAdmin.email);
      await page.type('#password', 'not-the-password-1');
      await page.click('#sign-in-btn');
      await page.waitForFunction(() => document.getElementById('msg')?.textContent !== '');
      expect(await page.$eval('#msg', (e) => e.textContent)).toBe('Wrong e-mail address or password.');

      await page.$eval('#password', (e) => ((e as HTMLInputElement).value = ''));
      await page.type('#password', demoAdmin.password);
      const board = page.waitForResponse((r) => r.url().endsWith('/admin/queues/queue/connectors'));
      await page.click('#sign-in-btn');
      expect((await board).status()).toBe(200);
      // Back on the address it was opened with; the board's own API calls carry the cookie.
      const queues = await page.waitForResponse((r) => r.url().includes('/admin/queues/api/queues'));
      expect(queues.status()).toBe(200);
      expect(page.url()).toBe(url);
      await page.waitForFunction(() => document.body.innerText.includes('tenant-update'));
      expect(await page.evaluate(() => document.body.innerText)).toContain('commerce-sync');

      // Our "Sign out" link sits in the board's links menu, the last button of its header.
      await page.click('ul[class^="actions"] > li:last-child button');
      const signOut = await page.waitForSelector('::-p-text(Sign out)');
      await Promise.all([page.waitForNavigation(), signOut!.click()]);
      await page.waitForSelector('#sign-in');
      expect(page.url()).toBe(`http://master.localhost:${proxy.port}/admin/queues`);
      expect(errors).toEqual([]);
    });
  });
});
