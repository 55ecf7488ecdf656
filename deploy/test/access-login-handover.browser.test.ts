import { allFeaturesClient } from '@aplt/licensing';
import { createUser } from '@aplt/service-access/seed';
import { codeFromMail, createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildAdmin } from '@aplt/service-admin/app';
import { loadConfig as adminConfig } from '@aplt/service-admin/config';
import {
  createTestFleet,
  launchChromium,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  testSecrets,
} from '@aplt/testing';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const USER = { email: 'visitor@example.com', password: 'Correct-Horse-42!' };

describe('a browser denied on a tenant host signs in on the access host and comes back signed in', () => {
  let fleet: TestFleet;
  let smtp: SmtpSink;
  let proxy: TestProxy;
  let browser: Browser;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    smtp = await startSmtpSink();
    // Loopback is not whitelisted here, so the browser on this machine is a stranger.
    const access = await createAccessAppForTest(fleet.registry, {
      SMTP_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      ACCESS_STATIC_WHITELIST: '192.0.2.1/32',
    });
    await createUser({ db: access.accessDb! }, { ...USER, roles: [] });
    const env = { ...process.env, ...fleet.env, ...testSecrets(), LOG_LEVEL: 'silent' };
    proxy = await startTestProxy({
      access,
      admin: await buildAdmin(
        { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
        adminConfig(env),
      ),
    });
    chromium = await launchChromium();
    browser = chromium.browser;
  });

  afterAll(async () => {
    await chromium?.close();
    await proxy?.stop();
    await smtp?.close();
    await fleet?.cleanup();
  });

  it('denied page -> sign in with CAPTCHA and e-mailed code -> back on acme with its own session', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    const target = `http://acme.localhost:${proxy.port}/api/identity`;

    const denied = await page.goto(target);
    expect(denied!.status()).toBe(401);
    expect(await page.$eval('#ip', (e) => e.textContent)).toBe('127.0.0.1');
    await Promise.all([page.waitForNavigation(), page.click('a')]);
    expect(page.url()).toBe(`http://access.localhost:${proxy.port}/login?rd=${encodeURIComponent(target)}`);

    await page.type('#email', USER.email);
    await page.type('#password', USER.password);
    await page.click('#login-btn');
    await page.waitForSelector('#f-otp:not([hidden])');
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(USER.email));
    await page.type('#code', codeFromMail(mail.parsed.text ?? ''));
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('#otp-btn')]);

    // Through acme's callback (a 302 with acme's cookie) to where the visitor was going.
    expect(page.url()).toBe(target);
    const identity = JSON.parse(await page.$eval('body', (e) => e.textContent ?? ''));
    expect(identity).toMatchObject({ user: USER.email, via: 'session' });
    const acmeCookies = await page.cookies(target);
    expect(acmeCookies.find((c) => c.name === 'aplt_session')).toMatchObject({
      domain: 'acme.localhost',
      httpOnly: true,
    });

    // The next visit passes on the cookie alone.
    const again = await page.goto(target);
    expect(again!.status()).toBe(200);
    expect(errors).toEqual([]);
  });
});
