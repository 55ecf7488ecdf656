import type { ApltDatabase, Kysely } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { totpCodeAt } from '@aplt/passwords/totp';
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
import { registerPublicUrls, secrets, seedVerifiedCustomer, testConfig } from './helpers';

const PASSWORD = 'Totp-Password-2026';
const SHOP = 'shop.localhost';
const OTHER = 'other.localhost';

/** The code an authenticator app shows `stepsAhead` 30-second steps from now. */
const appCode = (secret: string, stepsAhead = 0) => totpCodeAt(secret, Date.now() + 30_000 * stepsAhead);

function cookieOf(setCookie: string | string[] | undefined, name: string) {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
}

/**
 * Storefront customers' authenticator app (TOTP) as the second factor, against the real auth
 * app, Postgres, Redis and a loopback SMTP server: enrolment with password, QR code and a first
 * code; a login that asks for the app's code and sends no e-mail; each code once, even in a race;
 * recovery codes once; the 3-per-15-minutes limit; disable with the password; nothing of another
 * customer or tenant touched.
 */
describe('storefront customers: authenticator app (TOTP) second factor', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let bobSecret = '';
  const aplt = (tenant: string): Kysely<ApltDatabase> => fleet.tenantDbs.get(tenant)!.aplt.db;

  const send = (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => app.inject({ method, url, payload, headers: { ...viaProxy(SHOP), ...headers } });
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    send('POST', url, payload, headers);
  const mailsTo = (email: string) => sink.messages.filter((m) => m.envelope.to.includes(email));

  /** A signed-in customer: the cookie header of a session (second factor still off). */
  async function session(email: string, host = SHOP) {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/customer/emailpass',
      payload: { email, password: PASSWORD },
      headers: viaProxy(host),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { cookie: cookieOf(res.headers['set-cookie'], '_commerce_jwt')! };
  }

  /** Enrols `email`'s authenticator; returns the app's secret, the recovery codes and the session. */
  async function enrol(email: string) {
    const asCustomer = await session(email);
    const setup = await post(
      '/store/customer/2fa',
      { enabled: true, method: 'authenticator', password: PASSWORD },
      asCustomer,
    );
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = setup.json().setup.secret as string;
    const on = await post(
      '/store/customer/2fa',
      { enabled: true, method: 'authenticator', code: await appCode(secret) },
      asCustomer,
    );
    expect(on.statusCode, on.body).toBe(200);
    return { secret, codes: on.json().recovery_codes as string[], asCustomer };
  }

  /** The password step of a login: the pending login's header. */
  async function passwordStep(email: string) {
    const res = await post('/auth/customer/emailpass', { email, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ otp_required: true, method: 'authenticator' });
    return { authorization: `Bearer ${res.json().otp_token}` };
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'shop' }, { id: 'other' }]);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      testConfig(redis, sink, { LOGIN_RATE_MAX: '1000' }),
    );
    for (const email of ['ann@example.com', 'bob@example.com', 'cas@example.com', 'dee@example.com'])
      await seedVerifiedCustomer(fleet.registry, fleet.databases, email, PASSWORD);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('refuses to start without AUTH_TOTP_KEY, or with a published or short one', async () => {
    const { loadConfig } = await import('../src/config');
    const base = {
      JWT_SECRET: secrets.JWT_SECRET,
      ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
    };
    expect(() => loadConfig(base)).toThrow(/AUTH_TOTP_KEY/);
    for (const AUTH_TOTP_KEY of ['dev-only-totp-key-change-me-please-0123456789', 'short']) {
      let message = '';
      try {
        loadConfig({ ...base, AUTH_TOTP_KEY });
      } catch (err) {
        message = String(err);
      }
      expect(message).toMatch(/AUTH_TOTP_KEY: .*\(value hidden\)/);
      expect(message).not.toContain(AUTH_TOTP_KEY);
    }
    expect(loadConfig({ ...base, AUTH_TOTP_KEY: secrets.AUTH_TOTP_KEY }).AUTH_TOTP_KEY).toBe(
      secrets.AUTH_TOTP_KEY,
    );
  });

  it('enrols with the password, a QR code and the first code; the secret is stored sealed', async () => {
    const asAnn = await session('ann@example.com');
    const status = () => send('GET', '/store/customer/2fa', undefined, asAnn);
    expect((await status()).json()).toEqual({ enabled: false, method: null, recovery_codes_remaining: 0 });

    const start = (body: object) => post('/store/customer/2fa', body, asAnn);
    expect((await start({ enabled: true, method: 'authenticator' })).statusCode).toBe(400);
    const wrongPassword = await start({ enabled: true, method: 'authenticator', password: 'Not-It-2026' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ type: 'unauthorized', message: 'Invalid password' });
    const early = await start({ enabled: true, method: 'authenticator', code: '123456' });
    expect(early.statusCode).toBe(409);

    const setup = await start({ enabled: true, method: 'authenticator', password: PASSWORD });
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const body = setup.json();
    expect(body).toMatchObject({ enabled: false, method: null, setup: { expires_in: 600 } });
    expect(body.setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.setup.otpauth_uri).toMatch(/^otpauth:\/\/totp\/[^?]+:ann%40example\.com\?/);
    expect(body.setup.otpauth_uri).toContain(`secret=${body.setup.secret}`);
    expect(body.setup.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(body.setup.qr_data_url).toMatch(/^data:image\/png;base64,/);

    // A wrong code does not turn it on.
    const wrong = (Number(await appCode(body.setup.secret)) ^ 1).toString().padStart(6, '0');
    const refused = await start({ enabled: true, method: 'authenticator', code: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ type: 'unprocessable', code: 'wrong' });
    expect((await status()).json()).toMatchObject({ enabled: false });

    const on = await start({
      enabled: true,
      method: 'authenticator',
      code: await appCode(body.setup.secret),
    });
    expect(on.statusCode).toBe(200);
    expect(on.headers['cache-control']).toBe('no-store');
    const codes = on.json().recovery_codes as string[];
    expect(on.json()).toMatchObject({ enabled: true, method: 'authenticator' });
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    expect((await status()).json()).toEqual({
      enabled: true,
      method: 'authenticator',
      recovery_codes_remaining: 8,
    });
    // Set up again while on, or e-mailed codes on top of it: both refused.
    expect((await start({ enabled: true, method: 'authenticator', password: PASSWORD })).statusCode).toBe(
      409,
    );
    expect((await start({ enabled: true })).statusCode).toBe(409);

    const row = await aplt('shop')
      .selectFrom('aplt_customer_2fa')
      .selectAll()
      .where('customer_email', '=', 'ann@example.com')
      .executeTakeFirstOrThrow();
    expect(row.method).toBe('authenticator');
    expect(row.otp_secret).toMatch(/^v1\./);
    expect(row.otp_secret).not.toContain(body.setup.secret);
    expect(row.totp_pending_secret).toBeNull();
    for (const c of codes) expect(JSON.stringify(row.recovery_codes)).not.toContain(c);
  });

  it('signs in with the app code and sends no e-mail; a code works once, even when sent twice at once', async () => {
    const { secret } = await enrol('bob@example.com');
    bobSecret = secret;
    const pending = await passwordStep('bob@example.com');
    // Nothing to resend: the code comes from the app.
    const resend = await post('/store/auth/otp', { email: 'bob@example.com', resend: true }, pending);
    expect(resend.statusCode).toBe(409);
    expect(resend.json()).toMatchObject({ type: 'conflict', method: 'authenticator' });

    // The enrolment spent the current step: the next one is what the app shows in a moment.
    const next = await appCode(secret, 1);
    const other = await passwordStep('bob@example.com');
    const [a, b] = await Promise.all([
      post('/store/auth/otp', { email: 'bob@example.com', code: next }, pending),
      post('/store/auth/otp', { email: 'bob@example.com', code: next }, other),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const winner = a.statusCode === 200 ? a : b;
    expect(cookieOf(winner.headers['set-cookie'], '_commerce_jwt')).toBeTruthy();
    // The same code once more, on a fresh pending login: refused.
    const replay = await post('/store/auth/otp', { email: 'bob@example.com', code: next }, pending);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ type: 'unauthorized', message: 'Invalid code' });

    // An e-mail-code customer signs in after Bob: once that code has arrived, Bob's would have too.
    const dee = await session('dee@example.com');
    expect((await post('/store/customer/2fa', { enabled: true }, dee)).statusCode).toBe(200);
    const deeLogin = await post('/auth/customer/emailpass', { email: 'dee@example.com', password: PASSWORD });
    expect(deeLogin.json()).toMatchObject({ otp_required: true, method: 'email' });
    await sink.waitFor((m) => m.envelope.to.includes('dee@example.com'));
    expect(mailsTo('bob@example.com')).toHaveLength(0);
    await aplt('shop').deleteFrom('aplt_otp_attempts').execute();
  });

  it('takes a recovery code once, limits failures to 3 in 15 minutes, and turns off only with the password', async () => {
    const { secret, codes, asCustomer } = await enrol('cas@example.com');
    const pending = await passwordStep('cas@example.com');
    const otp = (factor: object) => post('/store/auth/otp', { email: 'cas@example.com', ...factor }, pending);
    expect((await otp({ recovery_code: codes[0]!.toUpperCase() })).statusCode).toBe(200);
    expect((await otp({ recovery_code: codes[0]! })).statusCode).toBe(401);
    const status = await send('GET', '/store/customer/2fa', undefined, asCustomer);
    expect(status.json()).toMatchObject({ recovery_codes_remaining: 7 });

    // Two failures so far (the spent recovery code above, a wrong app code), the third locks.
    expect((await otp({ code: '000000' })).statusCode).toBe(401);
    expect((await otp({ code: '999999' })).statusCode).toBe(401);
    const locked = await otp({ code: await appCode(secret, 1) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ type: 'rate_limited' });
    expect((await otp({ recovery_code: codes[1]! })).statusCode).toBe(429);
    await aplt('shop').deleteFrom('aplt_otp_attempts').execute();

    // Bad input: 400 with the fleet's error body, never a 500.
    for (const bad of [
      { enabled: true, method: 'authenticator', password: PASSWORD, code: '123456' },
      { enabled: true, method: 'authenticator', code: '12345' },
      { enabled: true, method: 'sms' },
      { enabled: 'yes' },
      { enabled: false, password: 7 },
    ]) {
      const res = await post('/store/customer/2fa', bad, asCustomer);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.any(String) });
    }
    expect((await otp({ code: 'abcdef' })).statusCode).toBe(400);
    expect((await otp({ code: '123456', recovery_code: codes[1]! })).statusCode).toBe(400);

    expect((await post('/store/customer/2fa', { enabled: false }, asCustomer)).statusCode).toBe(400);
    const wrong = await post('/store/customer/2fa', { enabled: false, password: 'Not-It-2026' }, asCustomer);
    expect(wrong.statusCode).toBe(401);
    const off = await post('/store/customer/2fa', { enabled: false, password: PASSWORD }, asCustomer);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, method: null });
    const row = await aplt('shop')
      .selectFrom('aplt_customer_2fa')
      .selectAll()
      .where('customer_email', '=', 'cas@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_enabled: false, method: 'email', otp_secret: null, totp_last_step: null });
    // Signing in is one step again.
    const plain = await post('/auth/customer/emailpass', { email: 'cas@example.com', password: PASSWORD });
    expect(plain.json()).toHaveProperty('token');
  });

  it('leaves other customers and tenants alone; a sealed secret copied to another row does not open', async () => {
    // The same address in the other tenant: no second factor there, one step to sign in.
    const there = await app.inject({
      method: 'POST',
      url: '/auth/customer/emailpass',
      payload: { email: 'ann@example.com', password: PASSWORD },
      headers: viaProxy(OTHER),
    });
    expect(there.json()).toHaveProperty('token');
    expect(await aplt('other').selectFrom('aplt_customer_2fa').selectAll().execute()).toEqual([]);
    const asAnnThere = { cookie: (await session('ann@example.com', OTHER)).cookie };
    const statusThere = await app.inject({
      method: 'GET',
      url: '/store/customer/2fa',
      headers: { ...viaProxy(OTHER), ...asAnnThere },
    });
    expect(statusThere.json()).toEqual({ enabled: false, method: null, recovery_codes_remaining: 0 });

    // Bob's sealed secret put on Ann's row (as someone with database access might): Bob's app
    // codes do not open Ann's account.
    const bob = await aplt('shop')
      .selectFrom('aplt_customer_2fa')
      .select(['otp_secret'])
      .where('customer_email', '=', 'bob@example.com')
      .executeTakeFirstOrThrow();
    const ann = await aplt('shop')
      .selectFrom('aplt_customer_2fa')
      .select(['otp_secret'])
      .where('customer_email', '=', 'ann@example.com')
      .executeTakeFirstOrThrow();
    await aplt('shop')
      .updateTable('aplt_customer_2fa')
      .set({ otp_secret: bob.otp_secret, totp_last_step: null })
      .where('customer_email', '=', 'ann@example.com')
      .execute();
    const pending = await passwordStep('ann@example.com');
    // A code Bob's app shows now would pass on Bob's row (its step is not spent there); here the
    // sealed value does not open at all.
    const res = await post(
      '/store/auth/otp',
      { email: 'ann@example.com', code: await appCode(bobSecret, 0) },
      pending,
    );
    expect(res.statusCode).toBe(401);
    await aplt('shop')
      .updateTable('aplt_customer_2fa')
      .set({ otp_secret: ann.otp_secret })
      .where('customer_email', '=', 'ann@example.com')
      .execute();
    await aplt('shop').deleteFrom('aplt_otp_attempts').execute();
  });

  it('answers 401 to the 2FA routes without a session', async () => {
    expect((await send('GET', '/store/customer/2fa')).statusCode).toBe(401);
    const res = await post('/store/customer/2fa', {
      enabled: true,
      method: 'authenticator',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ type: 'unauthorized' });
  });
});
