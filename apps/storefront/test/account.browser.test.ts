import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { freePort, httpRequest, launchChromium, uniqueName } from '@aplt/testing';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, startFleetFixture } from '../../../deploy/test/fleet-fixture';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { appDir, ensureStorefrontBuild } from './build';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/storefront/', import.meta.url));

/** A real PNG of w x h pixels in one colour (the APIs decode uploads, so it must be a valid image). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The text of a caught .eml: headers, quoted-printable soft breaks undone, base64 parts decoded. */
function mailText(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const b64 = [...raw.matchAll(/\r?\n\r?\n((?:[A-Za-z0-9+/=]{20,}\r?\n?)+)/g)]
    .map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'))
    .join('\n');
  return `${qp}\n${b64}`;
}

/**
 * The customer account of issue #15 in Debian's Chromium through the real fleet (the start
 * command's path, `next start` on the built app) behind Caddy on the shop host: sign-up, the
 * e-mailed verification link (the fleet's mail catcher keeps every message in FLEET_MAIL_DIR),
 * sign-in with remember-me, the e-mailed second factor and a recovery code, staff documents made
 * through the admin API and the customer's side of them (quotation accepted and rejected, order,
 * invoice PDF byte for byte, a return with two photos), profile with avatar, a tenant without
 * invoices, and account deletion. The gatekeeper is off here: the storefront test covers it.
 */
describe('customer account on the shop host through the proxy', () => {
  const prefix = `${uniqueName('sfa')}_`;
  let fx: FleetFixture;
  let proxyPort: number;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let staffToken: string;
  let mailDir: string;
  let work: string;
  let lean: ChildProcess | undefined;
  let leanPort: number;
  const output: string[] = [];
  const email = `klant-${prefix.replace(/_/g, '')}@example.com`;
  const password = 'Klant-Wachtwoord-2026';
  let recoveryCodes: string[] = [];
  let quoteOpen: { id: number; quotation_number: string };
  let quoteSoon: { id: number; quotation_number: string };
  let orderId: number;
  let orderNumber: string;
  let invoice: { id: number; invoice_number: string };

  const api = (path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { host: 'acme.localhost', ...opts });
  const staff = (method: string, path: string, body?: object) =>
    api(path, { method, headers: { authorization: `Bearer ${staffToken}` }, ...(body ? { body } : {}) });
  const shop = (path: string) => `http://shop.acme.localhost:${proxyPort}${path}`;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const text = (selector: string) => page.$eval(selector, (e) => (e.textContent ?? '').trim());
  const path = () => new URL(page.url()).pathname;

  /** Submits a form and waits for the page the server action answers (a redirect or a re-render). */
  async function submit(formSelector: string, waitFor: string) {
    await page.click(`${formSelector} button[type=submit]`);
    await waitFor_(waitFor);
  }

  /** Waits for an element; on failure says what the page showed instead. */
  async function waitFor_(selector: string) {
    try {
      await page.waitForSelector(selector, { timeout: 30_000 });
    } catch (err) {
      const shown = await page.evaluate(
        () => document.querySelector('main')?.innerText ?? document.body.innerText,
      );
      throw new Error(
        `${(err as Error).message} at ${page.url()}\npage: ${shown.slice(0, 600)}\n${output.slice(-15).join('\n')}`,
      );
    }
  }

  async function fill(selector: string, value: string) {
    await page.$eval(selector, (e) => ((e as HTMLInputElement).value = ''));
    await page.type(selector, value);
  }

  /** The newest caught message to the customer whose text matches, after `since` messages. */
  async function waitForMail(pattern: RegExp, seen: Set<string>, to = email): Promise<RegExpMatchArray> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      for (const f of readdirSync(mailDir).sort()) {
        if (seen.has(f)) continue;
        const body = mailText(readFileSync(join(mailDir, f), 'latin1'));
        if (!body.includes(to)) continue;
        const m = body.match(pattern);
        if (m) {
          seen.add(f);
          return m;
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no mail to ${to} matching ${pattern}\n${output.slice(-20).join('\n')}`);
  }
  const seenMail = new Set<string>();

  async function signIn(remember: boolean) {
    await page.goto(shop('/nl/account/login'));
    await fill('[data-testid=login-form] input[name=email]', email);
    await fill('[data-testid=login-form] input[name=password]', password);
    if (remember) await page.click('[data-testid=login-form] input[name=remember]');
    await page.click('[data-testid=login-form] button[type=submit]');
  }

  async function signOut() {
    await page.goto(shop('/nl/account'));
    await submit('form:has([data-testid=sign-out])', '[data-testid=login-notice]');
    expect(path()).toBe('/nl/account/login');
  }

  async function sessionCookie() {
    const cookies = await page.cookies(shop('/'));
    return cookies.find((c) => c.name === '_commerce_jwt');
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureStorefrontBuild();
    fx = await startFleetFixture('master,acme', {
      NEXT_PUBLIC_GATEKEEPER_ENABLED: 'false',
    });
    proxyPort = fx.proxyPort;
    work = fx.work;
    mailDir = fx.mailDir;
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('dialog', (d) => void d.accept());
    page.setDefaultTimeout(45_000);
    const login = await api('/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    staffToken = login.json().token;
  }, 400_000);

  afterAll(async () => {
    lean?.kill('SIGTERM');
    await chromium?.close();
    await fx?.stop();
  }, 120_000);

  it('registers with company, lands on "check your e-mail" and verifies from the caught e-mail', async () => {
    await page.goto(shop('/nl'));
    expect(await text('[data-testid=account-menu]')).toBe('Inloggen');
    await page.goto(shop('/nl/account'));
    expect(path()).toBe('/nl/account/login');
    await page.click('a[href="/nl/account/register"]');
    await waitFor_('[data-testid=register-form]');
    await page.type('input[name=first_name]', 'Karin');
    await page.type('input[name=last_name]', 'Klant');
    await page.type('input[name=company_name]', 'Klant BV');
    await page.type('input[name=email]', email);
    // Too weak for the API's rules (long enough for the browser): a readable message, no crash.
    await page.type('input[name=password]', 'alleenletters');
    await submit('[data-testid=register-form]', '[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toContain('minstens 10 tekens');
    await fill('input[name=password]', password);
    await shot('account-01-register');
    await submit('[data-testid=register-form]', '[data-testid=check-email]');
    expect(path()).toBe('/nl/account/register/check-email');
    expect(await text('main')).toContain(email);
    await shot('account-02-check-email');

    // Signing in before verifying is refused with a sentence, not an error page.
    await signIn(false);
    await waitFor_('[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toContain('Bevestig eerst uw e-mailadres');

    const [link] = await waitForMail(/http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/, seenMail);
    // The registry's store_base_url: this shop host on the proxy's port.
    expect(link.startsWith(shop('/verify-email?token='))).toBe(true);
    // Without the link's language (an e-mail from before it had one) the shop picks the browser's
    // (Accept-Language), here Dutch.
    await page.setExtraHTTPHeaders({ 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    await page.goto(link);
    await waitFor_('[data-testid=verified]');
    expect(path()).toBe('/nl/account/verify');
    expect(await text('[data-testid=verified]')).toContain(email);
    await shot('account-03-verified');
    // The token is used up: the same link again says so and offers a new one.
    await page.goto(link);
    await waitFor_('[data-testid=verify-failed]');
  });

  it('signs up on the German page: a German verification e-mail whose link opens the German verify page', async () => {
    const anna = email.replace('@', '.de@');
    await page.goto(shop('/de/account/register'));
    await waitFor_('[data-testid=register-form]');
    await page.type('input[name=first_name]', 'Anna');
    await page.type('input[name=last_name]', 'Kunde');
    await page.type('input[name=company_name]', 'Kunde GmbH');
    await page.type('input[name=email]', anna);
    await page.type('input[name=password]', password);
    await submit('[data-testid=register-form]', '[data-testid=check-email]');
    expect(path()).toBe('/de/account/register/check-email');
    // The storefront passed the page's language: German text, and a link that names it (the
    // quoted-printable ä is two latin1 characters here).
    const [, link] = await waitForMail(
      /Willkommen! Best.{1,2}tigen Sie Ihre E-Mail-Adresse[\s\S]*?(http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+&lang=de)/,
      seenMail,
      anna,
    );
    // The link's language beats the browser's (still Dutch from the test before).
    await page.goto(link!);
    await waitFor_('[data-testid=verified]');
    expect(path()).toBe('/de/account/verify');
    expect(await text('[data-testid=verified]')).toContain(anna);
  });

  it('resets a forgotten password from the e-mailed link: the new one signs in, the old one and the used link fail readably', async () => {
    const rik = email.replace('@', '.reset@');
    const before = 'Oud-Wachtwoord-2026';
    const after = 'Nieuw-Wachtwoord-2026';
    const formError = '[data-testid=form-error]';
    /** Submits and waits until the form's error says `expected` (an earlier message may still show). */
    async function submitForError(form: string, expected: string) {
      await page.click(`${form} button[type=submit]`);
      try {
        await page.waitForFunction(
          (sel: string, t: string) => document.querySelector(sel)?.textContent?.includes(t) ?? false,
          { timeout: 30_000 },
          `${form} ${formError}`,
          expected,
        );
      } catch (err) {
        const shown = await page.evaluate(() => document.querySelector('main')?.innerText ?? '');
        throw new Error(`${(err as Error).message}: no "${expected}" at ${page.url()}\npage: ${shown}`);
      }
    }
    async function signInAs(pw: string) {
      await page.goto(shop('/nl/account/login'));
      await fill('[data-testid=login-form] input[name=email]', rik);
      await fill('[data-testid=login-form] input[name=password]', pw);
      await page.click('[data-testid=login-form] button[type=submit]');
    }

    // A verified customer of its own (the API's sign-up and the caught verification link).
    const signUp = await api('/store/customers', {
      method: 'POST',
      body: { email: rik, password: before, first_name: 'Rik', last_name: 'Reset', lang: 'nl' },
    });
    expect(signUp.status, signUp.text()).toBe(201);
    const [verifyLink] = await waitForMail(/http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/, seenMail, rik);
    const verified = await api('/store/customers/verify-email', {
      method: 'POST',
      body: { token: new URL(verifyLink).searchParams.get('token') },
    });
    expect(verified.status, verified.text()).toBe(200);

    await page.setExtraHTTPHeaders({ 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    await page.goto(shop('/nl/account/login'));
    await page.click('[data-testid=forgot-password]');
    await waitFor_('[data-testid=forgot-form]');
    expect(path()).toBe('/nl/account/forgot-password');
    // An unknown address and a known one get the very same confirmation.
    await page.type('[data-testid=forgot-form] input[name=email]', `niemand-${rik}`);
    await submit('[data-testid=forgot-form]', '[data-testid=form-ok]');
    const confirmation = await text('[data-testid=form-ok]');
    expect(confirmation).toBe(
      'Als het adres bij ons bekend is, is er een e-mail met een link onderweg. Kijk ook in uw map met ongewenste e-mail.',
    );
    await page.goto(shop('/nl/account/forgot-password'));
    await page.type('[data-testid=forgot-form] input[name=email]', rik);
    await shot('account-reset-01-forgot');
    await submit('[data-testid=forgot-form]', '[data-testid=form-ok]');
    expect(await text('[data-testid=form-ok]')).toBe(confirmation);
    expect(await page.$('[data-testid=forgot-form]')).toBeNull();
    await shot('account-reset-02-requested');

    const [link] = await waitForMail(
      /http:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9._-]+&email=[A-Za-z0-9._%+-]+/,
      seenMail,
      rik,
    );
    expect(link.startsWith(shop('/reset-password?token='))).toBe(true);
    await page.goto(link);
    await waitFor_('[data-testid=reset-form]');
    expect(path()).toBe('/nl/account/reset-password');
    expect(await text('main')).toContain(`Kies een nieuw wachtwoord voor ${rik}.`);
    const tokenField = await page.$eval('[data-testid=reset-form] input[name=token]', (e) => ({
      type: (e as HTMLInputElement).type,
      value: (e as HTMLInputElement).value,
    }));
    expect(tokenField).toEqual({ type: 'hidden', value: new URL(link).searchParams.get('token') });

    // Two different passwords: said before the API is asked.
    await fill('[data-testid=reset-form] input[name=password]', after);
    await fill('[data-testid=reset-form] input[name=password_repeat]', `${after}x`);
    await submitForError('[data-testid=reset-form]', 'De twee wachtwoorden zijn niet gelijk.');
    // One the API's rules refuse (no digits): its refusal as the sign-up page's rules, token unspent.
    await fill('[data-testid=reset-form] input[name=password]', 'alleenletters');
    await fill('[data-testid=reset-form] input[name=password_repeat]', 'alleenletters');
    await submitForError('[data-testid=reset-form]', 'minstens 10 tekens, met letters en cijfers');
    await shot('account-reset-03-refused');
    await fill('[data-testid=reset-form] input[name=password]', after);
    await fill('[data-testid=reset-form] input[name=password_repeat]', after);
    await submit('[data-testid=reset-form]', '[data-testid=login-notice]');
    expect(path()).toBe('/nl/account/login');
    expect(await text('[data-testid=login-notice]')).toBe(
      'Uw wachtwoord is gewijzigd. Log in met uw nieuwe wachtwoord.',
    );
    await shot('account-reset-04-changed');

    // The old password no longer signs in; the new one does.
    await signInAs(before);
    await waitFor_(formError);
    expect(await text(formError)).toBe('Onbekend e-mailadres of verkeerd wachtwoord.');
    await signInAs(after);
    await waitFor_('[data-testid=account]');
    expect(await text('[data-testid=account-menu] .account-name')).toBe('Rik Reset');
    await signOut();

    // The link once more: the form still shows (the token is not expired), the API refuses it as
    // used, and the page says so with a way to a new link, without the token in its URL.
    await page.goto(link);
    await waitFor_('[data-testid=reset-form]');
    await fill('[data-testid=reset-form] input[name=password]', 'Derde-Wachtwoord-2026');
    await fill('[data-testid=reset-form] input[name=password_repeat]', 'Derde-Wachtwoord-2026');
    await submit('[data-testid=reset-form]', '[data-testid=reset-invalid]');
    expect(path()).toBe('/nl/account/reset-password');
    expect(page.url()).not.toContain('token=');
    expect(await text('[data-testid=reset-invalid]')).toBe('Deze link is ongeldig, verlopen of al gebruikt.');
    await shot('account-reset-05-used');
    const third = await api('/auth/customer/emailpass', {
      method: 'POST',
      body: { email: rik, password: 'Derde-Wachtwoord-2026' },
    });
    expect(third.status).toBe(401);
    await page.click('[data-testid=request-new-link]');
    await waitFor_('[data-testid=forgot-form]');
    expect(path()).toBe('/nl/account/forgot-password');

    // A link without a token, or with an expired one, says so straight away.
    await page.goto(shop('/reset-password'));
    await waitFor_('[data-testid=reset-invalid]');
    const [head, , sig] = new URL(link).searchParams.get('token')!.split('.');
    const stale = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 })).toString(
      'base64url',
    );
    await page.goto(shop(`/reset-password?token=${head}.${stale}.${sig}&lang=en`));
    await waitFor_('[data-testid=reset-invalid]');
    expect(path()).toBe('/en/account/reset-password');
    expect(await text('[data-testid=reset-invalid]')).toBe(
      'This link is invalid, has expired or has already been used.',
    );
  });

  it('signs in for 7 days, or 30 with remember-me, in an httpOnly sameSite-strict cookie; signs out', async () => {
    await page.goto(shop('/nl/account/login'));
    await fill('[data-testid=login-form] input[name=email]', email);
    await fill('[data-testid=login-form] input[name=password]', 'Verkeerd-Wachtwoord-1');
    await submit('[data-testid=login-form]', '[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toBe('Onbekend e-mailadres of verkeerd wachtwoord.');
    await shot('account-04-login-error');

    await signIn(false);
    await waitFor_('[data-testid=account]');
    expect(path()).toBe('/nl/account');
    let cookie = (await sessionCookie())!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const days = (c: { expires: number }) => (c.expires * 1000 - Date.now()) / 86_400_000;
    expect(days(cookie)).toBeGreaterThan(6.9);
    expect(days(cookie)).toBeLessThanOrEqual(7);
    expect(await text('[data-testid=account-menu] .account-name')).toBe('Karin Klant');
    expect(await page.evaluate(() => document.cookie)).not.toContain('_commerce_jwt');
    await signOut();
    expect(await sessionCookie()).toBeUndefined();

    await signIn(true);
    await waitFor_('[data-testid=account]');
    cookie = (await sessionCookie())!;
    expect(days(cookie)).toBeGreaterThan(29.9);
    expect(days(cookie)).toBeLessThanOrEqual(30);
    await shot('account-05-overview');
  });

  it('turns on 2FA (8 recovery codes shown once), then signs in with the e-mailed code and with a recovery code', async () => {
    await page.goto(shop('/nl/account/security'));
    await waitFor_('[data-testid=two-factor][data-enabled=false]');
    await page.click('[data-testid=enable-2fa]');
    await waitFor_('[data-testid=recovery-codes]');
    recoveryCodes = await page.$$eval('[data-testid=recovery-codes] code', (cs) =>
      cs.map((c) => c.textContent ?? ''),
    );
    expect(recoveryCodes).toHaveLength(8);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await shot('account-06-recovery-codes');
    // Shown once: the page itself now only says how many are left.
    await page.goto(shop('/nl/account/security'));
    await waitFor_('[data-testid=two-factor][data-enabled=true]');
    expect(await text('[data-testid=two-factor]')).toContain('8 herstelcodes over');
    expect(await page.$('[data-testid=recovery-codes]')).toBeNull();

    await signOut();
    await signIn(true);
    await waitFor_('[data-testid=otp-form]');
    expect(path()).toBe('/nl/account/login/code');
    expect(await sessionCookie()).toBeUndefined();
    const [, code] = await waitForMail(/(?:inlogcode|login code) (\d{6})/, seenMail);
    // A wrong code first: a sentence, and the step stays open.
    const wrong = code === '000000' ? '111111' : '000000';
    await page.type('[data-testid=otp-form] input[name=code]', wrong);
    await submit('[data-testid=otp-form]', '[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toBe('Deze code klopt niet.');
    await shot('account-07-otp');
    // A new code replaces the first one.
    await submit('[data-testid=otp-resend]', '[data-testid=otp-resend] [data-testid=form-ok]');
    expect(await text('[data-testid=otp-resend] [data-testid=form-ok]')).toBe(
      'Er is een nieuwe code verstuurd.',
    );
    const [, second] = await waitForMail(/(?:inlogcode|login code) (\d{6})/, seenMail);
    expect(second).toMatch(/^\d{6}$/);
    await fill('[data-testid=otp-form] input[name=code]', second!);
    await page.click('[data-testid=otp-form] button[type=submit]');
    await waitFor_('[data-testid=account]');
    // Remember-me survives the second step.
    expect(((await sessionCookie())!.expires * 1000 - Date.now()) / 86_400_000).toBeGreaterThan(29.9);

    await signOut();
    await signIn(false);
    await waitFor_('[data-testid=otp-form]');
    await waitForMail(/(?:inlogcode|login code) (\d{6})/, seenMail);
    await page.click('details.recovery summary');
    await page.type('[data-testid=recovery-form] input[name=recovery_code]', recoveryCodes[3]!);
    await page.click('[data-testid=recovery-form] button[type=submit]');
    await waitFor_('[data-testid=account]');
    await page.goto(shop('/nl/account/security'));
    expect(await text('[data-testid=two-factor]')).toContain('7 herstelcodes over');
  });

  it('sees the quotations staff made, with the expiry banner; rejects one with a reason and accepts the other', async () => {
    const customer = await staff('POST', '/admin/aplt/customers', {
      email,
      company: 'Klant BV',
      first_name: 'Karin',
      last_name: 'Klant',
      country: 'NL',
    });
    expect(customer.status, customer.text()).toBe(201);
    const line = {
      line_type: 'product',
      sku: 'PEN-100',
      description: 'Balpen met logo',
      quantity: 250,
      unit_price: '1.50',
      setup_costs: [],
    };
    const q1 = await staff('POST', '/admin/aplt/quotations', {
      customer_id: customer.json().id,
      title: 'Pennen voor de beurs',
      lines: [line],
    });
    expect(q1.status, q1.text()).toBe(201);
    quoteOpen = q1.json();
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const q2 = await staff('POST', '/admin/aplt/quotations', {
      customer_id: customer.json().id,
      title: 'Mokken',
      valid_until: inTwoDays,
      lines: [{ ...line, sku: 'MUG-1', description: 'Mok bedrukt', quantity: 50, unit_price: '4.00' }],
    });
    expect(q2.status, q2.text()).toBe(201);
    quoteSoon = q2.json();

    await page.goto(shop('/nl/account'));
    await waitFor_('[data-testid=expiry-banner]');
    expect(await text('[data-testid=expiry-banner]')).toContain(
      `Offerte ${quoteSoon.quotation_number} verloopt`,
    );
    expect(await text('[data-testid=tile-quotations]')).toContain('2 open offertes');
    await shot('account-08-overview-banner');

    await page.goto(shop('/nl/account/quotations'));
    const numbers = await page.$$eval('[data-testid=quotation-list] tbody tr td:first-child', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(numbers.sort()).toEqual([quoteOpen.quotation_number, quoteSoon.quotation_number].sort());
    await waitFor_('[data-testid=expiry-banner]');
    await shot('account-09-quotations');

    await page.goto(shop(`/nl/account/quotations/${quoteSoon.id}`));
    await page.click('details.reject summary');
    await page.type('[data-testid=reject-form] textarea[name=reason]', 'Te duur voor deze oplage');
    await submit('[data-testid=reject-form]', '[data-testid=quote-notice]');
    expect(await text('h1 .status-badge')).toBe('Afgewezen');
    expect(await text('.facts')).toContain('Te duur voor deze oplage');

    await page.goto(shop(`/nl/account/quotations/${quoteOpen.id}`));
    expect(await text('.doc-table tfoot')).toContain('375,00');
    await shot('account-10-quotation');
    await submit('[data-testid=accept-form]', '[data-testid=quote-notice]');
    const accepted = (await text('[data-testid=quote-notice]')).match(/Uw bestelling is (O-\d{4}-\d{4})/);
    expect(accepted).not.toBeNull();
    orderNumber = accepted![1]!;
    expect(await text('h1 .status-badge')).toBe('Geaccepteerd');
    expect(await page.$('[data-testid=quote-actions]')).toBeNull();
    const staffView = (await staff('GET', `/admin/aplt/quotations/${quoteSoon.id}`)).json();
    expect(staffView).toMatchObject({ status: 'rejected' });

    // Someone else's (or no) quotation: a sentence in the page, not an error page.
    await page.goto(shop('/nl/account/quotations/987654'));
    expect(await text('.error')).toBe('Dit document bestaat niet of is niet van u.');
  });

  it('sees the order with status and tracking link, and downloads the invoice PDF with the admin bytes', async () => {
    const orders = (await staff('GET', '/admin/aplt/orders?limit=50')).json();
    const order = (orders.data as { id: number | string; order_number: string }[]).find(
      (o) => o.order_number === orderNumber,
    )!;
    expect(order, JSON.stringify(orders).slice(0, 500)).toBeDefined();
    orderId = Number(order.id);
    for (const status of ['confirmed', 'shipped'] as const) {
      const r = await staff('POST', '/admin/aplt/orders/status', {
        id: orderId,
        status,
        ...(status === 'shipped'
          ? { tracking_url: 'https://track.example/KL-123', expected_delivery_date: '2026-12-01' }
          : {}),
      });
      expect(r.status, r.text()).toBe(200);
    }
    await page.goto(shop('/nl/account/orders'));
    await waitFor_('[data-testid=order-list]');
    expect(await text('[data-testid=order-list] tbody')).toContain(order.order_number);
    expect(await text('[data-testid=order-list] .status-badge')).toBe('Verzonden');
    expect(await page.$eval('[data-testid=tracking-link]', (a) => (a as HTMLAnchorElement).href)).toBe(
      'https://track.example/KL-123',
    );
    await shot('account-11-orders');

    const inv = await staff('POST', '/admin/aplt/invoices', { order_id: orderId });
    expect(inv.status, inv.text()).toBe(201);
    invoice = inv.json();
    const adminPdf = await staff('GET', `/admin/aplt/invoices/pdf?id=${invoice.id}`);
    expect(adminPdf.status).toBe(200);
    expect(adminPdf.body.subarray(0, 5).toString()).toBe('%PDF-');

    await page.goto(shop('/nl/account/invoices'));
    await waitFor_('[data-testid=invoice-list]');
    expect(await text('[data-testid=invoice-list] tbody')).toContain(invoice.invoice_number);
    await shot('account-12-invoices');
    // The year filter: this year lists it, another year does not.
    await page.select(
      '[data-testid=invoice-filter] select[name=year]',
      String(new Date().getUTCFullYear() - 1),
    );
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=invoice-filter] button')]);
    expect(await page.$('[data-testid=invoice-list]')).toBeNull();

    await page.goto(shop('/nl/account/invoices'));
    const href = await page.$eval('[data-testid=invoice-pdf]', (a) => (a as HTMLAnchorElement).href);
    const downloaded = await page.evaluate(async (url) => {
      const res = await fetch(url);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return { status: res.status, type: res.headers.get('content-type'), b64: btoa(bin) };
    }, href);
    expect(downloaded.status).toBe(200);
    expect(downloaded.type).toBe('application/pdf');
    expect(Buffer.from(downloaded.b64, 'base64').equals(adminPdf.body)).toBe(true);
    // Someone else's (or no) invoice: 404 with a sentence, never another customer's bytes.
    const other = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, text: await res.text() };
    }, shop('/nl/account/invoices/987654/pdf'));
    expect(other).toEqual({ status: 404, text: 'Dit document bestaat niet of is niet van u.' });
    const junk = await page.evaluate(
      async (url) => (await fetch(url)).status,
      shop('/nl/account/invoices/1x/pdf'),
    );
    expect(junk).toBe(404);
    await page.goto(shop('/nl/account/orders/987654'));
    expect(await text('.error')).toBe('Dit document bestaat niet of is niet van u.');
    // Without the session the shop hands out nothing.
    const anon = await httpRequest(`http://127.0.0.1:${proxyPort}/nl/account/invoices/${invoice.id}/pdf`, {
      host: 'shop.acme.localhost',
    });
    expect(anon.status).toBe(303);
    expect(anon.headers.location).toBe('/nl/account/login?expired=1');
  });

  it('files a return of invoice lines with a reason and two photos, and lists it', async () => {
    const photos = [png(64, 48, [200, 40, 40]), png(48, 64, [40, 120, 200])].map((b, i) => {
      const f = join(work, `schade-${i + 1}.png`);
      writeFileSync(f, b);
      return f;
    });
    await page.goto(shop('/nl/account/returns'));
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=new-return]')]);
    await waitFor_('[data-testid=choose-invoice]');
    await page.select('[data-testid=choose-invoice] select', String(invoice.id));
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=choose-invoice] button')]);
    await waitFor_('[data-testid=return-form]');
    const lineIds = await page.$$eval('[data-testid=return-form] tr[data-line]', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.line!),
    );
    expect(lineIds).toHaveLength(1);
    const lineId = lineIds[0]!;
    // "Other" without its text is refused with a sentence.
    await fill(`input[name=qty_${lineId}]`, '20');
    await page.select(`select[name=reason_${lineId}]`, 'other');
    await submit('[data-testid=return-form]', '[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toBe('Geef bij “anders” een toelichting.');
    await page.type(`input[name=reason_text_${lineId}]`, 'Logo scheef gedrukt');
    const input = (await page.$('[data-testid=return-form] input[type=file]'))!;
    await input.uploadFile(...photos);
    await page.type('[data-testid=return-form] textarea[name=remark]', 'Graag een nieuwe levering.');
    await shot('account-13-return-form');
    await page.click('[data-testid=return-form] button[type=submit]');
    await waitFor_('[data-testid=return-filed]');
    expect(path()).toBe('/nl/account/returns');
    expect(await text('[data-testid=return-filed]')).toMatch(/Retour R-\d{4}-\d{4} is aangemeld/);
    const card = '[data-testid=return-list] .return-card';
    expect(await text(card)).toContain('Anders: Logo scheef gedrukt');
    expect(await text(card)).toContain('20×');
    await page.waitForFunction(
      (sel) => {
        const imgs = [...document.querySelectorAll<HTMLImageElement>(`${sel} .photos img`)];
        return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
      },
      {},
      card,
    );
    await shot('account-14-returns');
    const listed = await page.evaluate(
      () => document.querySelectorAll('[data-testid=return-list] li').length,
    );
    expect(listed).toBe(1);
  });

  it('edits the profile (language, notifications) and uploads an avatar; a non-image is refused readably', async () => {
    await page.goto(shop('/nl/account/profile'));
    await waitFor_('[data-testid=profile-form]');
    await fill('input[name=first_name]', 'Karina');
    await fill('input[name=phone]', '+31 20 123 45 67');
    await page.select('select[name=preferred_language]', 'en');
    await page.click('input[name=notify_newsletter]');
    await submit('[data-testid=profile-form]', '[data-testid=profile-form] [data-testid=form-ok]');
    const bad = join(work, 'geen-foto.png');
    writeFileSync(bad, 'dit is geen afbeelding');
    await (await page.$('[data-testid=avatar-form] input[type=file]'))!.uploadFile(bad);
    await submit('[data-testid=avatar-form]', '[data-testid=avatar-form] [data-testid=form-error]');
    expect(await text('[data-testid=avatar-form] [data-testid=form-error]')).toBe(
      'Het bestand is geen geldige JPEG- of PNG-afbeelding.',
    );
    const avatar = join(work, 'avatar.png');
    writeFileSync(avatar, png(128, 128, [30, 160, 90]));
    await (await page.$('[data-testid=avatar-form] input[type=file]'))!.uploadFile(avatar);
    await submit('[data-testid=avatar-form]', '[data-testid=avatar-form] [data-testid=form-ok]');
    await page.goto(shop('/nl/account/profile'));
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=avatar]');
      return img?.complete && img.naturalWidth > 0;
    });
    expect(await page.$eval('input[name=first_name]', (i) => (i as HTMLInputElement).value)).toBe('Karina');
    expect(await page.$eval('select[name=preferred_language]', (s) => (s as HTMLSelectElement).value)).toBe(
      'en',
    );
    expect(await page.$eval('input[name=notify_newsletter]', (i) => (i as HTMLInputElement).checked)).toBe(
      true,
    );
    expect(await text('[data-testid=account-menu] .account-name')).toBe('Karina Klant');
    await shot('account-15-profile');
    // The same account in English and German.
    await page.goto(shop('/en/account/orders'));
    expect(await text('[data-testid=order-list] .status-badge')).toBe('Shipped');
    await page.goto(shop('/de/account'));
    expect(await text('h1')).toBe('Willkommen, Karina Klant');
    await shot('account-16-overview-de');
  });

  it('a tenant without the invoices feature: no invoices or returns in the menu, and their routes answer 404', async () => {
    // A second storefront of the same build whose tenant licenses no invoices (NEXT_PUBLIC_TENANT_FEATURES).
    leanPort = await freePort();
    lean = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1'], {
      cwd: appDir,
      env: {
        ...process.env,
        PORT: String(leanPort),
        STORE_API_URL: `http://127.0.0.1:${proxyPort}`,
        PROXY_DOMAIN: 'localhost',
        NEXT_PUBLIC_GATEKEEPER_ENABLED: 'false',
        NEXT_PUBLIC_TENANT_FEATURES: 'products,quotations,orders',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    lean.stdout?.on('data', (d: Buffer) => output.push(`lean| ${d.toString().trim()}`));
    lean.stderr?.on('data', (d: Buffer) => output.push(`lean| ${d.toString().trim()}`));
    const leanUrl = (p: string) => `http://shop.acme.localhost:${leanPort}${p}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await httpRequest(`http://127.0.0.1:${leanPort}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline)
        throw new Error(`second storefront did not start\n${output.slice(-10).join('\n')}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    // Cookies belong to the host, not the port: the same session.
    await page.goto(leanUrl('/nl/account'));
    await waitFor_('[data-testid=account]');
    const menu = await page.$$eval('.account-nav a', (as) => as.map((a) => a.textContent));
    expect(menu).toEqual(['Overzicht', 'Offertes', 'Bestellingen', 'Profiel', 'Beveiliging']);
    expect(await page.$('[data-testid=tile-invoices]')).toBeNull();
    await shot('account-17-no-invoices-feature');
    for (const p of [
      '/nl/account/invoices',
      `/nl/account/invoices/${invoice.id}`,
      '/nl/account/returns',
      '/nl/account/returns/new',
    ]) {
      const res = await page.goto(leanUrl(p));
      expect(res?.status(), p).toBe(404);
    }
    const pdf = await page.evaluate(
      async (u) => (await fetch(u)).status,
      leanUrl(`/nl/account/invoices/${invoice.id}/pdf`),
    );
    expect(pdf).toBe(404);
    // The shop with every feature still has them.
    const full = await page.goto(shop('/nl/account/invoices'));
    expect(full?.status()).toBe(200);
  });

  it('deletes the account with the password: signed out, and the account no longer signs in', async () => {
    await page.goto(shop('/nl/account/delete'));
    await page.type('[data-testid=delete-form] input[name=password]', 'Niet-Mijn-Wachtwoord-1');
    await page.click('[data-testid=delete-form] input[name=confirm]');
    await submit('[data-testid=delete-form]', '[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toBe('Het wachtwoord klopt niet.');
    await fill('[data-testid=delete-form] input[name=password]', password);
    await shot('account-18-delete');
    await submit('[data-testid=delete-form]', '[data-testid=login-notice]');
    expect(path()).toBe('/nl/account/login');
    expect(await text('[data-testid=login-notice]')).toContain('Uw account is verwijderd');
    expect(await sessionCookie()).toBeUndefined();
    expect(await text('[data-testid=account-menu]')).toBe('Inloggen');
    await shot('account-19-deleted');
    await signIn(false);
    await waitFor_('[data-testid=form-error]');
    expect(await text('[data-testid=form-error]')).toBe('Onbekend e-mailadres of verkeerd wachtwoord.');
    // The invoice stays with staff (documents are kept).
    expect((await staff('GET', `/admin/aplt/invoices/${invoice.id}`)).status).toBe(200);
  });
});
