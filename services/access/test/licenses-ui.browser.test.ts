import {
  createTestFleet,
  launchChromium,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
} from '@aplt/testing';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { seedTenantLicenses } from '../src/licensing/license.service';
import { createAccessAppForTest } from './access-app';
import { codeFromMail } from './helpers';

const ADMIN = { email: 'ui-admin@example.com', password: 'Correct-Horse-42!' };

describe('/admin/licenses in a real browser', () => {
  let fleet: TestFleet;
  let smtp: SmtpSink;
  let proxy: TestProxy;
  let browser: Browser;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    smtp = await startSmtpSink();
    const access = await createAccessAppForTest(fleet.registry, {
      SMTP_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    });
    await seedTenantLicenses(access.accessDb!, ['acme', 'globex'], ['crm', 'ai_assist']);
    await createUser({ db: access.accessDb! }, { ...ADMIN, roles: ['license-admin', 'access-admin'] });
    proxy = await startTestProxy({ access });
    chromium = await launchChromium();
    browser = chromium.browser;
  });

  afterAll(async () => {
    await chromium?.close();
    await proxy?.stop();
    await smtp?.close();
    await fleet?.cleanup();
  });

  it('logs in, toggles a feature and shows the new count and audit row', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    const base = `http://access.localhost:${proxy.port}`;
    expect((await page.goto(`${base}/admin/licenses`))!.status()).toBe(401);

    await page.goto(`${base}/login`);
    await page.type('#email', ADMIN.email);
    await page.type('#password', ADMIN.password);
    await page.click('#login-btn');
    await page.waitForSelector('#f-otp:not([hidden])');
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(ADMIN.email));
    await page.type('#code', codeFromMail(mail.parsed.text ?? ''));
    await Promise.all([page.waitForNavigation(), page.click('#otp-btn')]);
    expect(page.url()).toBe(`${base}/admin/licenses`);

    await page.waitForSelector('#summary[data-count="29/31"]');
    const tenantCount = () => page.$eval('nav button[data-tenant="acme"] .count', (e) => e.textContent);
    expect(await tenantCount()).toBe('29/31');
    expect(await page.$eval('#groups', (e) => e.textContent)).toContain('addons (6/8)');
    expect(await page.$$eval('#audit tr', (rows) => rows.length)).toBe(0);

    await page.click('#toggle-crm');
    await page.waitForSelector('#summary[data-count="30/31"]');
    expect(await tenantCount()).toBe('30/31');
    expect(await page.$eval('#groups', (e) => e.textContent)).toContain('addons (7/8)');
    await page.waitForFunction(() => document.querySelectorAll('#audit tr').length === 1);
    const row = await page.$eval('#audit tr', (e) => e.textContent);
    expect(row).toContain('crm');
    expect(row).toContain('false → true');
    expect(row).toContain(ADMIN.email);
    expect(await page.$eval('#toggle-crm', (e) => (e as HTMLInputElement).checked)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('manages users on /admin/users with the same session', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await page.goto(`http://access.localhost:${proxy.port}/admin/users`);
    await page.waitForSelector(`tr[data-email="${ADMIN.email}"]`);

    await page.type('#new-email', 'new.colleague@example.com');
    await page.type('#new-password', 'Temporary-Pass-77!');
    await page.click('.new-role[value="license-admin"]');
    await page.click('#add-btn');
    const row = 'tr[data-email="new.colleague@example.com"]';
    await page.waitForSelector(row);
    expect(await page.$eval(`${row} .state`, (e) => e.textContent)).toBe('must change password');
    expect(
      await page.$eval(`${row} input[data-role="license-admin"]`, (e) => (e as HTMLInputElement).checked),
    ).toBe(true);

    // Each change re-renders the table: act on the current row, then wait for the next render.
    const version = () => page.$eval('#users', (e) => Number((e as HTMLElement).dataset.version));
    const act = async (selector: string) => {
      const before = await version();
      await page.$eval(selector, (e) => (e as HTMLElement).click());
      await page.waitForFunction(
        (v) => Number(document.getElementById('users')!.dataset.version) > v,
        {},
        before,
      );
    };
    await act(`${row} input[data-role="access-admin"]`);
    expect(
      await page.$eval(`${row} input[data-role="access-admin"]`, (e) => (e as HTMLInputElement).checked),
    ).toBe(true);
    await act(`${row} .toggle`);
    expect(await page.$eval(`${row} .state`, (e) => e.textContent)).toBe('disabled');

    // The API agrees with the page.
    const users = await page.evaluate(async () => (await fetch('/api/admin/users')).json());
    expect(users.find((u: { email: string }) => u.email === 'new.colleague@example.com')).toMatchObject({
      roles: ['access-admin', 'license-admin'],
      disabled: true,
    });
    expect(await page.$eval('#msg', (e) => e.textContent)).toBe('');
    expect(errors).toEqual([]);
  });
});
