import type { ApltDatabase, Kysely } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { registerPublicUrls, storeUrlOf, testConfig } from './helpers';

const HOST = 'shop.localhost';
const EMAIL = 'jane@customer.localhost';
const PASSWORD = 'Jane-Password-2026';

function cookie(setCookie: string | string[] | undefined, name: string) {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}
const cookieValue = (c: string | undefined) => c?.split(';')[0]!.split('=').slice(1).join('=');

describe('storefront customers: registration, verification, cookie sessions, OTP second factor', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let recoveryCodes: string[] = [];
  const shopAplt = (): Kysely<ApltDatabase> => fleet.tenantDbs.get('shop')!.aplt.db;

  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers: { ...viaProxy(HOST), ...headers } });
  const login = (remember = false) =>
    post('/auth/customer/emailpass', {
      email: EMAIL,
      password: PASSWORD,
      ...(remember ? { remember_me: true } : {}),
    });
  const mailsTo = (subject: string) =>
    sink.messages.filter((m) => m.envelope.to.includes(EMAIL) && m.parsed.subject?.includes(subject));
  async function nextMail(subject: string, seen: number) {
    return sink.waitFor(
      (m) =>
        m.envelope.to.includes(EMAIL) &&
        !!m.parsed.subject?.includes(subject) &&
        mailsTo(subject).indexOf(m) >= seen,
    );
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'shop' }]);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      testConfig(redis, sink, { LOGIN_RATE_MAX: '100' }),
    );
  });

  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('registers, refuses login until the e-mail is verified, then sets a 7-day httpOnly strict cookie', async () => {
    const weak = await post('/store/customers', { email: EMAIL, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    const reg = await post('/store/customers', {
      email: EMAIL,
      password: PASSWORD,
      first_name: 'Jane',
      company_name: 'Jane BV',
      // The storefront page's language: Jane's account e-mails are English from now on.
      lang: 'en',
    });
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({
      customer: { email: EMAIL, first_name: 'Jane', company_name: 'Jane BV' },
      email_verification_required: true,
    });
    expect((await post('/store/customers', { email: EMAIL, password: PASSWORD })).statusCode).toBe(409);

    const early = await login();
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ type: 'not_allowed', reason: 'email_not_verified' });

    const mail = await nextMail('confirm your e-mail', 0);
    const link = mail.parsed.text!.match(/http\S+\/verify-email\?token=\S+/)![0];
    // The storefront URL of the registry, whatever Host the request came with, and the language.
    expect(link.startsWith(`${storeUrlOf('shop')}/verify-email?token=`)).toBe(true);
    expect(new URL(link).searchParams.get('lang')).toBe('en');
    const token = new URL(link).searchParams.get('token')!;
    expect((await post('/store/customers/verify-email', { token: 'not-a-token' })).statusCode).toBe(400);
    const verified = await post('/store/customers/verify-email', { token });
    expect(verified.json()).toEqual({ verified: true, email: EMAIL });
    expect((await post('/store/customers/verify-email', { token })).statusCode).toBe(400);

    const wrong = await post('/auth/customer/emailpass', { email: EMAIL, password: 'Wrong-Password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ type: 'unauthorized', message: 'Invalid email or password' });

    const ok = await login();
    expect(ok.statusCode).toBe(200);
    const set = cookie(ok.headers['set-cookie'], '_commerce_jwt')!;
    expect(set).toContain('Max-Age=604800');
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Strict');
    expect(cookieValue(set)).toBe(ok.json().token);

    const remembered = cookie((await login(true)).headers['set-cookie'], '_commerce_jwt')!;
    expect(remembered).toContain('Max-Age=2592000');
  });

  it('also supports Medusa v2 two-step registration (registration token, then POST /store/customers)', async () => {
    const other = 'medusa-flow@customer.localhost';
    const reg = await post('/auth/customer/emailpass/register', {
      email: other,
      password: 'Medusa-Flow-2026',
    });
    expect(reg.statusCode).toBe(200);
    const token = reg.json().token as string;
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({
      actor_id: '',
      actor_type: 'customer',
    });
    const again = await post('/auth/customer/emailpass/register', {
      email: other,
      password: 'Medusa-Flow-2026',
    });
    expect(again.json()).toEqual({ type: 'unauthorized', message: 'Identity with email already exists' });

    expect(
      (
        await post(
          '/store/customers',
          { email: 'someone-else@customer.localhost' },
          { authorization: `Bearer ${token}` },
        )
      ).statusCode,
    ).toBe(400);
    const created = await post(
      '/store/customers',
      { email: other, first_name: 'Med', lang: 'de' },
      { authorization: `Bearer ${token}` },
    );
    expect(created.statusCode).toBe(200);
    expect(created.json().customer).toMatchObject({ email: other, first_name: 'Med' });
    expect(
      (await post('/store/customers', { email: other }, { authorization: `Bearer ${token}` })).statusCode,
    ).toBe(409);
    // Medusa's second step takes the page's language too: German here.
    await sink.waitFor(
      (m) =>
        m.envelope.to.includes(other) &&
        !!m.parsed.subject?.includes('Bestätigen Sie Ihre E-Mail-Adresse') &&
        !!m.parsed.text?.includes('verify-email?token=') &&
        !!m.parsed.text?.includes('&lang=de'),
    );
    // Not verified yet: no session.
    expect(
      (await post('/auth/customer/emailpass', { email: other, password: 'Medusa-Flow-2026' })).statusCode,
    ).toBe(403);
  });

  it('enables 2FA with 8 recovery codes shown once; login then needs the e-mailed 6-digit code', async () => {
    const session = cookieValue(cookie((await login()).headers['set-cookie'], '_commerce_jwt'))!;
    const asCustomer = { cookie: `_commerce_jwt=${session}` };
    expect(
      (await app.inject({ method: 'GET', url: '/store/customer/2fa', headers: viaProxy(HOST) })).statusCode,
    ).toBe(401);
    const before = await app.inject({
      method: 'GET',
      url: '/store/customer/2fa',
      headers: { ...viaProxy(HOST), ...asCustomer },
    });
    expect(before.json()).toEqual({ enabled: false, method: null, recovery_codes_remaining: 0 });

    const enabled = await post('/store/customer/2fa', { enabled: true }, asCustomer);
    expect(enabled.statusCode).toBe(200);
    recoveryCodes = enabled.json().recovery_codes;
    expect(recoveryCodes).toHaveLength(8);
    expect(new Set(recoveryCodes).size).toBe(8);
    expect((await post('/store/customer/2fa', { enabled: true }, asCustomer)).statusCode).toBe(409);
    const stored = await shopAplt().selectFrom('aplt_customer_2fa').selectAll().executeTakeFirstOrThrow();
    expect(stored.recovery_codes).toHaveLength(8);
    for (const code of recoveryCodes) expect(JSON.stringify(stored.recovery_codes)).not.toContain(code);

    const seen = mailsTo('login code').length;
    const first = await login();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ otp_required: true });
    expect(cookie(first.headers['set-cookie'], '_commerce_jwt')).toBeUndefined();
    const pending = cookieValue(cookie(first.headers['set-cookie'], '_commerce_otp'))!;
    const mail = await nextMail('login code', seen);
    const code = mail.parsed.text!.match(/\b(\d{6})\b/)![1]!;

    // Without the pending login (password step) a code alone is worthless.
    expect((await post('/store/auth/otp', { email: EMAIL, code })).statusCode).toBe(401);
    const done = await post(
      '/store/auth/otp',
      { email: EMAIL, code },
      { cookie: `_commerce_otp=${pending}` },
    );
    expect(done.statusCode).toBe(200);
    expect(cookie(done.headers['set-cookie'], '_commerce_jwt')).toContain('HttpOnly');
    // A code works once.
    expect(
      (await post('/store/auth/otp', { email: EMAIL, code }, { cookie: `_commerce_otp=${pending}` }))
        .statusCode,
    ).toBe(401);
  });

  it('resends a code, accepts a recovery code once, and locks after 3 wrong codes in 15 minutes', async () => {
    const first = await login();
    const pending = { authorization: `Bearer ${first.json().otp_token}` };
    const seen = mailsTo('login code').length;
    const resent = await post('/store/auth/otp', { email: EMAIL, resend: true }, pending);
    expect(resent.statusCode).toBe(202);
    await nextMail('login code', seen + 1);

    const recovery = await post(
      '/store/auth/otp',
      { email: EMAIL, recovery_code: recoveryCodes[0]!.toUpperCase() },
      pending,
    );
    expect(recovery.statusCode).toBe(200);
    expect(
      (await post('/store/auth/otp', { email: EMAIL, recovery_code: recoveryCodes[0]! }, pending)).statusCode,
    ).toBe(401);

    // Two failures so far in this window (the reused code above, the reused recovery code); one more
    // makes three, and the fourth try is refused even with a valid recovery code.
    expect((await post('/store/auth/otp', { email: EMAIL, code: '000000' }, pending)).statusCode).toBe(401);
    const locked = await post('/store/auth/otp', { email: EMAIL, recovery_code: recoveryCodes[1]! }, pending);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ type: 'rate_limited' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/store/auth/otp', { email: EMAIL, code: '12345' }, pending)).statusCode).toBe(400);
  });

  it('turns 2FA off only with the password', async () => {
    // Attempts are per e-mail; clear this window's failures so the recovery login can proceed.
    await shopAplt().deleteFrom('aplt_otp_attempts').execute();
    const first = await login();
    const pending = { authorization: `Bearer ${first.json().otp_token}` };
    const done = await post('/store/auth/otp', { email: EMAIL, recovery_code: recoveryCodes[2]! }, pending);
    const asCustomer = { cookie: `_commerce_jwt=${done.json().token}` };
    const status = await app.inject({
      method: 'GET',
      url: '/store/customer/2fa',
      headers: { ...viaProxy(HOST), ...asCustomer },
    });
    expect(status.json()).toEqual({ enabled: true, method: 'email', recovery_codes_remaining: 6 });

    expect((await post('/store/customer/2fa', { enabled: false }, asCustomer)).statusCode).toBe(400);
    expect(
      (await post('/store/customer/2fa', { enabled: false, password: 'Wrong-Password-1' }, asCustomer))
        .statusCode,
    ).toBe(401);
    const off = await post('/store/customer/2fa', { enabled: false, password: PASSWORD }, asCustomer);
    expect(off.json()).toEqual({ enabled: false, method: null });
    expect((await login()).json()).toHaveProperty('token');
  });

  it('lets a customer reset the password through the storefront link', async () => {
    const res = await post('/auth/customer/emailpass/reset-password', { identifier: EMAIL });
    expect(res.statusCode).toBe(201);
    const mail = await nextMail('reset your password', 0);
    const link = mail.parsed.text!.match(/http\S+\/reset-password\?token=\S+/)![0];
    expect(link.startsWith(`${storeUrlOf('shop')}/reset-password?token=`)).toBe(true);
    const token = new URL(link).searchParams.get('token')!;
    // A customer reset token cannot change an admin password.
    const asAdmin = await post(
      '/auth/user/emailpass/update',
      { password: 'Cust-New-Pass-11' },
      { authorization: `Bearer ${token}` },
    );
    expect(asAdmin.statusCode).toBe(401);
    const ok = await post(
      '/auth/customer/emailpass/update',
      { password: 'Cust-New-Pass-11' },
      { authorization: `Bearer ${token}` },
    );
    expect(ok.json()).toEqual({ success: true });
    expect(ok.headers['x-password-sync-run']).toBeUndefined();
    expect(
      (await post('/auth/customer/emailpass', { email: EMAIL, password: 'Cust-New-Pass-11' })).statusCode,
    ).toBe(200);
  });

  it("sends account e-mails in the customer's language: preferred, else the page's, else the tenant's, else Dutch", async () => {
    const mailTo = (to: string, seen = 0) =>
      sink.waitFor(
        (m) =>
          m.envelope.to.includes(to) &&
          sink.messages.filter((x) => x.envelope.to.includes(to)).indexOf(m) >= seen,
      );
    const countTo = (to: string) => sink.messages.filter((m) => m.envelope.to.includes(to)).length;
    const password = 'Taal-Password-2026';
    expect(
      (await post('/store/customers', { email: 'fr@taal.localhost', password, lang: 'fr' })).statusCode,
    ).toBe(400);

    // Dutch from a Dutch page: subject, text and the link's language.
    const nl = 'nl@taal.localhost';
    expect((await post('/store/customers', { email: nl, password, lang: 'nl' })).statusCode).toBe(201);
    const nlMail = await mailTo(nl);
    expect(nlMail.parsed.subject).toBe('shop: bevestig uw e-mailadres');
    expect(nlMail.parsed.text).toContain('Welkom! Bevestig uw e-mailadres om uw account te gebruiken.');
    expect(nlMail.parsed.html).toContain('E-mailadres bevestigen');
    const link = new URL(nlMail.parsed.text!.match(/http\S+\/verify-email\?\S+/)![0]);
    expect(link.searchParams.get('lang')).toBe('nl');
    await post('/store/customers/verify-email', { token: link.searchParams.get('token')! });
    // The login code follows the preferred language (Dutch), not the page it is asked from.
    const session = (await post('/auth/customer/emailpass', { email: nl, password })).json().token as string;
    expect(
      (await post('/store/customer/2fa', { enabled: true }, { authorization: `Bearer ${session}` }))
        .statusCode,
    ).toBe(200);
    let seen = countTo(nl);
    const pending = await post('/auth/customer/emailpass', { email: nl, password, lang: 'en' });
    expect(pending.json()).toMatchObject({ otp_required: true });
    const code = await mailTo(nl, seen);
    expect(code.parsed.subject).toMatch(/^shop: uw inlogcode \d{6}$/);
    expect(code.parsed.text).toMatch(/Uw inlogcode is \d{6}\.\n.*Deel hem nooit met iemand\./s);
    seen = countTo(nl);
    const resent = await post(
      '/store/auth/otp',
      { email: nl, resend: true, lang: 'de' },
      { authorization: `Bearer ${pending.json().otp_token}` },
    );
    expect(resent.statusCode).toBe(202);
    expect((await mailTo(nl, seen)).parsed.subject).toMatch(/^shop: uw inlogcode \d{6}$/);

    // German from a German page, and the reset e-mail too.
    const de = 'de@taal.localhost';
    expect((await post('/store/customers', { email: de, password, lang: 'de' })).statusCode).toBe(201);
    const deMail = await mailTo(de);
    expect(deMail.parsed.subject).toBe('shop: Bestätigen Sie Ihre E-Mail-Adresse');
    expect(deMail.parsed.text).toContain('Willkommen! Bestätigen Sie Ihre E-Mail-Adresse');
    expect(
      new URL(deMail.parsed.text!.match(/http\S+\/verify-email\?\S+/)![0]).searchParams.get('lang'),
    ).toBe('de');
    seen = countTo(de);
    expect((await post('/auth/customer/emailpass/reset-password', { identifier: de })).statusCode).toBe(201);
    const reset = await mailTo(de, seen);
    expect(reset.parsed.subject).toBe('shop: Passwort zurücksetzen');
    expect(reset.parsed.text).toContain('Der Link funktioniert einmal und läuft in');
    expect(reset.parsed.text).toMatch(/Neues Passwort wählen: http\S+\/reset-password\?token=/);
    // The link carries the e-mail's language, so the storefront opens the page in German too.
    expect(
      new URL(reset.parsed.text!.match(/http\S+\/reset-password\?\S+/)![0]).searchParams.get('lang'),
    ).toBe('de');

    // No language anywhere: Dutch; with the tenant's default brand in German: German. The resend
    // of a customer without a preferred language takes the page's.
    const plain = 'plain@taal.localhost';
    expect((await post('/store/customers', { email: plain, password })).statusCode).toBe(201);
    expect((await mailTo(plain)).parsed.subject).toBe('shop: bevestig uw e-mailadres');
    seen = countTo(plain);
    await post('/store/customers/verify-email/resend', { email: plain, lang: 'en' });
    expect((await mailTo(plain, seen)).parsed.subject).toBe('shop: confirm your e-mail address');
    await shopAplt()
      .insertInto('aplt_brands')
      .values({ code: 'shop', name: 'Shop', is_default: true, default_language: 'de' })
      .execute();
    seen = countTo(plain);
    await post('/store/customers/verify-email/resend', { email: plain });
    expect((await mailTo(plain, seen)).parsed.subject).toBe('shop: Bestätigen Sie Ihre E-Mail-Adresse');
  });
});
