import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpRequest, launchChromium, statusOrReset, uniqueName } from '@aplt/testing';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The test computes the app's codes with otplib itself, through the shared TOTP module.
import { totpCodeAt } from '@aplt/passwords/totp';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { ensureStorefrontBuild } from './build';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/storefront/', import.meta.url));

/** The code an authenticator app shows `stepsAhead` 30-second steps from now. */
const appCode = (secret: string, stepsAhead = 0) => totpCodeAt(secret, Date.now() + 30_000 * stepsAhead);

/**
 * A storefront customer sets up an authenticator app on the security page in Debian's Chromium,
 * through the real fleet (compiled services, `next start`) behind Caddy: password, QR code and
 * key, a wrong then a right first code, the recovery codes once; signing in then asks for the
 * app's code (no e-mail is sent) and takes a recovery code once; turning it off needs the
 * password. Then the routes as an attacker from another address: no session, encoded and
 * case-changed paths, NUL-carrying, malformed and oversize bodies.
 */
describe('authenticator app for storefront customers, in the browser through the proxy', () => {
  const prefix = `${uniqueName('sft')}_`;
  const email = `app-${prefix.replace(/_/g, '')}@example.com`;
  const password = 'App-Wachtwoord-2026';
  let fx: FleetFixture;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let secret = '';
  let recoveryCodes: string[] = [];

  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${fx.proxyPort}${path}`, { host: 'acme.localhost', ...opts });
  const shop = (path: string) => `http://shop.acme.localhost:${fx.proxyPort}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const text = (selector: string) => page.$eval(selector, (e) => (e.textContent ?? '').trim());
  const path = () => new URL(page.url()).pathname;
  /** Every caught message to the customer (the fleet's mail catcher writes one file each). */
  const mailsToCustomer = () =>
    readdirSync(fx.mailDir).filter((f) => readFileSync(join(fx.mailDir, f), 'latin1').includes(email));

  async function waitFor(selector: string) {
    try {
      await page.waitForSelector(selector, { timeout: 30_000 });
    } catch (err) {
      const shown = await page.evaluate(() => document.querySelector('main')?.innerText ?? '');
      throw new Error(`${(err as Error).message} at ${page.url()}\npage: ${shown.slice(0, 600)}`);
    }
  }
  async function fill(selector: string, value: string) {
    await page.$eval(selector, (e) => ((e as HTMLInputElement).value = ''));
    await page.type(selector, value);
  }
  async function passwordStep() {
    await page.goto(shop('/en/account/login'));
    await fill('[data-testid=login-form] input[name=email]', email);
    await fill('[data-testid=login-form] input[name=password]', password);
    await page.click('[data-testid=login-form] button[type=submit]');
  }
  async function signOut() {
    await page.goto(shop('/en/account'));
    await page.click('form:has([data-testid=sign-out]) button[type=submit]');
    await waitFor('[data-testid=login-notice]');
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureStorefrontBuild();
    fx = await startFleetFixture('master,acme', { NEXT_PUBLIC_GATEKEEPER_ENABLED: 'false' });
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.setDefaultTimeout(45_000);

    // A verified customer (the API's sign-up and the caught verification link).
    const signUp = await api('/store/customers', {
      method: 'POST',
      body: { email, password, first_name: 'Ada', last_name: 'App', lang: 'en' },
    });
    expect(signUp.status, signUp.text()).toBe(201);
    const deadline = Date.now() + 30_000;
    let token: string | undefined;
    while (!token && Date.now() < deadline) {
      for (const f of mailsToCustomer()) {
        const raw = readFileSync(join(fx.mailDir, f), 'latin1').replace(/=\r?\n/g, '');
        token = raw
          .match(/verify-email\?token=3D([A-Za-z0-9_-]+)|verify-email\?token=([A-Za-z0-9_-]+)/)
          ?.slice(1)
          .find(Boolean);
        if (token) break;
      }
      if (!token) await new Promise((r) => setTimeout(r, 200));
    }
    expect(token, 'verification mail').toBeTruthy();
    const verified = await api('/store/customers/verify-email', { method: 'POST', body: { token } });
    expect(verified.status, verified.text()).toBe(200);
  }, 400_000);

  afterAll(async () => {
    await chromium?.close();
    await fx?.stop();
  }, 120_000);

  it('sets up the app on the security page: QR code and key, a wrong then the right code, recovery codes once', async () => {
    await passwordStep();
    await waitFor('[data-testid=sign-out]');
    await page.goto(shop('/en/account/security'));
    await waitFor('[data-testid=method-authenticator]');
    expect(await text('[data-testid=method-email] h3')).toBe('Code by e-mail');
    expect(await text('[data-testid=method-authenticator] h3')).toBe('Authenticator app');
    await shot('totp-01-choose-method');

    // A wrong password first: said in words, no QR code.
    await page.type('[data-testid=method-authenticator] input[name=password]', 'Not-The-Password-1');
    await page.click('[data-testid=setup-authenticator]');
    await waitFor('[data-testid=method-authenticator] [data-testid=form-error]');
    expect(await text('[data-testid=method-authenticator] [data-testid=form-error]')).toBe(
      'The password is not correct.',
    );
    await fill('[data-testid=method-authenticator] input[name=password]', password);
    await page.click('[data-testid=setup-authenticator]');
    await waitFor('[data-testid=authenticator-setup]');
    secret = await page.$eval('[data-testid=totp-key]', (e) => e.getAttribute('data-secret') ?? '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await text('[data-testid=totp-key]')).replace(/\s/g, '')).toBe(secret);
    const qr = await page.$eval('[data-testid=totp-qr]', (img) => ({
      src: (img as HTMLImageElement).src,
      loaded: (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
    }));
    expect(qr.src).toMatch(/^data:image\/png;base64,/);
    expect(qr.loaded).toBe(true);
    await shot('totp-02-qr-and-key');

    const right = await appCode(secret);
    const wrong = ((Number(right) + 1) % 1_000_000).toString().padStart(6, '0');
    await page.type('[data-testid=totp-confirm-form] input[name=code]', wrong);
    await page.click('[data-testid=totp-confirm-form] button[type=submit]');
    await waitFor('[data-testid=totp-confirm-form] [data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toContain('This code is not correct');
    // The QR code stays for the next try.
    expect(await page.$('[data-testid=totp-qr]')).not.toBeNull();
    await shot('totp-03-wrong-code');
    await fill('[data-testid=totp-confirm-form] input[name=code]', await appCode(secret));
    await page.click('[data-testid=totp-confirm-form] button[type=submit]');
    await waitFor('[data-testid=recovery-codes]');
    recoveryCodes = await page.$$eval('[data-testid=recovery-codes] code', (cs) =>
      cs.map((c) => c.textContent ?? ''),
    );
    expect(recoveryCodes).toHaveLength(8);
    expect(await text('[data-testid=recovery-codes] .notice')).toContain('authenticator app');
    expect(await text('[data-testid=recovery-codes]')).toContain(
      'do not have your authenticator app at hand',
    );
    await shot('totp-04-recovery-codes');

    // Shown once: the page again shows the method and how many codes are left, not the codes.
    await page.goto(shop('/en/account/security'));
    await waitFor('[data-testid=two-factor][data-method=authenticator]');
    expect(await page.$('[data-testid=recovery-codes]')).toBeNull();
    expect(await text('[data-testid=two-factor-state]')).toBe(
      'On: when you sign in we ask for the code from your authenticator app.',
    );
    await shot('totp-05-security-on');
  });

  it('signs in with the code from the app (no e-mail) and, once, with a recovery code', async () => {
    await signOut();
    const mailsBefore = mailsToCustomer().length;
    await passwordStep();
    await waitFor('[data-testid=otp-form]');
    expect(path()).toBe('/en/account/login/code');
    expect(await text('[data-testid=otp-intro]')).toContain('authenticator app');
    expect(await text('[data-testid=otp-form] label span')).toBe('Code from your authenticator app');
    expect(await page.$('[data-testid=otp-resend]')).toBeNull();
    expect(await text('[data-testid=use-recovery]')).toBe('No access to your app? Use a recovery code.');
    await shot('totp-06-sign-in-app-code');
    // The set-up spent the current step: the next one is what the app shows in a moment.
    await page.type('[data-testid=otp-form] input[name=code]', await appCode(secret, 1));
    await page.click('[data-testid=otp-form] button[type=submit]');
    await waitFor('[data-testid=sign-out]');
    expect(path()).toBe('/en/account');

    await signOut();
    await passwordStep();
    await waitFor('[data-testid=otp-form]');
    await page.click('[data-testid=use-recovery]');
    await page.type('[data-testid=recovery-form] input[name=recovery_code]', recoveryCodes[0]!);
    await shot('totp-07-recovery-code');
    await page.click('[data-testid=recovery-form] button[type=submit]');
    await waitFor('[data-testid=sign-out]');
    // No login code was e-mailed for any of this.
    expect(mailsToCustomer().length).toBe(mailsBefore);

    await signOut();
    await passwordStep();
    await waitFor('[data-testid=otp-form]');
    await page.click('[data-testid=use-recovery]');
    await page.type('[data-testid=recovery-form] input[name=recovery_code]', recoveryCodes[0]!);
    await page.click('[data-testid=recovery-form] button[type=submit]');
    await waitFor('[data-testid=recovery-form] [data-testid=form-error]');
    expect(await text('[data-testid=recovery-form] [data-testid=form-error]')).toBe(
      'This code is not correct.',
    );
  });

  it('refuses the 2FA routes to an attacker: no session, odd spellings, NUL-carrying, malformed and oversize bodies', async () => {
    // From an address the fleet does not know, the tenant host is behind forward auth: whatever
    // the spelling or the body, no request reaches the auth service without a session.
    const from = (p: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
      api(p, { localAddress: '127.0.0.2', ...opts });
    for (const [p, opts] of [
      ['/store/customer/2fa', {}],
      ['/store/customer/2fa', { method: 'POST', body: { enabled: false, password } }],
      ['/store/customer/%32fa', {}],
      ['/STORE/CUSTOMER/2FA', {}],
      ['/store/customer/2fa/../2fa', {}],
      ['/store/customer/2fa', { method: 'POST', body: { enabled: true, method: 'authenticator\u0000' } }],
      ['/store/auth/otp', { method: 'POST', body: { email: `${email}\u0000`, code: '123456' } }],
    ] as const) {
      const res = await from(p, opts as Parameters<typeof httpRequest>[1]);
      expect(res.status, `${p} ${JSON.stringify(opts)}`).toBe(401);
    }
    // The proxy refuses this upload unread: a 401, or a reset if that lands while it is being sent.
    const bigOutside = await statusOrReset(
      from('/store/customer/2fa', {
        method: 'POST',
        body: { enabled: false, password: 'x'.repeat(2_000_000) },
      }),
    );
    expect([401, 'reset']).toContain(bigOutside);

    // Where the storefront's server stands (a whitelisted address) with a customer's session:
    // odd spellings and bad bodies are 4xx with the fleet's error body, never a 500.
    const inside = (p: string, opts: Parameters<typeof httpRequest>[1] = {}) => api(p, opts);
    const login = await inside('/auth/customer/emailpass', { method: 'POST', body: { email, password } });
    expect(login.status, login.text()).toBe(200);
    const pending = login.json().otp_token as string;
    expect(login.json()).toMatchObject({ otp_required: true, method: 'authenticator' });
    const otp = await inside('/store/auth/otp', {
      method: 'POST',
      headers: { authorization: `Bearer ${pending}` },
      body: { email, recovery_code: recoveryCodes[1] },
    });
    expect(otp.status, otp.text()).toBe(200);
    const session = { authorization: `Bearer ${otp.json().token}` };
    expect((await inside('/store/customer/%32fa', { headers: session })).status).toBe(200);
    expect((await inside('/STORE/CUSTOMER/2FA', { headers: session })).status).toBe(404);
    for (const body of [
      { enabled: true, method: 'authenticator', code: '123456\u0000' },
      { enabled: true, method: 'authenticator', password: 'x\u0000', code: '123456' },
      { enabled: false, password: 42 },
      { enabled: 'true\u0000' },
      { enabled: true, method: 'authenticator\u0000', password },
    ]) {
      const res = await inside('/store/customer/2fa', { method: 'POST', headers: session, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ type: 'invalid_data' });
    }
    // A NUL-carrying password is refused before it is compared with anything.
    const nul = await inside('/store/customer/2fa', {
      method: 'POST',
      headers: session,
      body: { enabled: false, password: '\u0000' },
    });
    expect(nul.status).toBe(400);
    expect(nul.json()).toMatchObject({ type: 'invalid_data' });
    const malformed = await inside('/store/customer/2fa', {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: '{"enabled": tru',
    });
    expect(malformed.status).toBe(400);
    const big = await inside('/store/customer/2fa', {
      method: 'POST',
      headers: session,
      body: { enabled: false, password: 'x'.repeat(2_000_000) },
    });
    expect(big.status).toBe(413);
    const otpNul = await inside('/store/auth/otp', {
      method: 'POST',
      headers: { authorization: `Bearer ${pending}` },
      body: { email: `${email}\u0000`, code: '123456' },
    });
    expect(otpNul.status).toBeGreaterThanOrEqual(400);
    expect(otpNul.status).toBeLessThan(500);
    // Still on, untouched by all of the above.
    const status = await inside('/store/customer/2fa', { headers: session });
    expect(status.json()).toMatchObject({ enabled: true, method: 'authenticator' });
  });

  it('turns the app off on the security page only with the password', async () => {
    // The test before ended on the code page (a spent recovery code): sign in with a fresh one.
    await passwordStep();
    await waitFor('[data-testid=otp-form]');
    await page.click('[data-testid=use-recovery]');
    await page.type('[data-testid=recovery-form] input[name=recovery_code]', recoveryCodes[2]!);
    await page.click('[data-testid=recovery-form] button[type=submit]');
    await waitFor('[data-testid=sign-out]');
    await page.goto(shop('/en/account/security'));
    await waitFor('[data-testid=disable-2fa]');
    await page.type('[data-testid=disable-2fa] input[name=password]', 'Not-The-Password-1');
    await page.click('[data-testid=disable-2fa] button[type=submit]');
    await waitFor('[data-testid=disable-2fa] [data-testid=form-error]');
    await fill('[data-testid=disable-2fa] input[name=password]', password);
    await page.click('[data-testid=disable-2fa] button[type=submit]');
    // The page re-renders with the second factor off and both methods offered again.
    await waitFor('[data-testid=two-factor][data-enabled=false] [data-testid=method-authenticator]');
    await shot('totp-08-off');
    await signOut();
    await passwordStep();
    await waitFor('[data-testid=sign-out]');
  });
});
