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
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import { registerPublicUrls, seedDemoAdmins, seedVerifiedCustomer, testConfig, until } from './helpers';

type App = Awaited<ReturnType<typeof buildApp>>;
const CUSTOMER = 'gus@customer.localhost';
const CUSTOMER_PASSWORD = 'Gus-Password-2026';

/** Issue 13, items 6 and 8: guessing is counted atomically per account and per host; bad strings are 400. */
describe('emailpass guessing: account lockout, host-normalised rate limit, NUL and lone surrogates', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let lockoutApp: App;
  let rateApp: App;
  let shortApp: App;

  const login = (app: App, host: string, email: string, password: string, actor = 'user') =>
    app.inject({
      method: 'POST',
      url: `/auth/${actor}/emailpass`,
      payload: { email, password },
      headers: viaProxy(host),
    });
  const burst = (n: number, attempt: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
  const statuses = (answers: Array<{ statusCode: number }>) => {
    const count: Record<number, number> = {};
    for (const a of answers) count[a.statusCode] = (count[a.statusCode] ?? 0) + 1;
    return count;
  };
  /** A 429 body with the number of seconds taken out: the part that must not depend on the account. */
  const shape = (res: {
    statusCode: number;
    json(): Record<string, unknown>;
    headers: Record<string, unknown>;
  }) => ({
    status: res.statusCode,
    body: { ...res.json(), message: String(res.json().message).replace(/\d+/g, 'N'), retry_after: 'N' },
    retryAfter: typeof res.headers['retry-after'],
  });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'stark' }, { id: 'acme' }, { id: 'wayne' }, { id: 'hooli' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await seedVerifiedCustomer(fleet.registry, fleet.databases, CUSTOMER, CUSTOMER_PASSWORD);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    // The lockout alone (rate limit far away), the rate limit alone, and a lockout of 2 seconds.
    // Each app has its own Redis prefix, as separate fleets would.
    lockoutApp = await buildApp(
      deps,
      testConfig(redis, sink, { LOGIN_RATE_MAX: '1000', MAIL_WORKER: 'false' }),
    );
    rateApp = await buildApp(
      deps,
      testConfig(redis, sink, {
        REDIS_PREFIX: `${redis.prefix}-rl`,
        LOGIN_RATE_MAX: '5',
        LOGIN_RATE_WINDOW_SECONDS: '600',
        MAIL_WORKER: 'false',
      }),
    );
    shortApp = await buildApp(
      deps,
      testConfig(redis, sink, {
        REDIS_PREFIX: `${redis.prefix}-short`,
        LOGIN_RATE_MAX: '1000',
        AUTH_LOCKOUT_MAX_FAILURES: '3',
        // Long enough for three password checks and a fourth login on a loaded CI machine (2 s
        // was not: the lockout had ended before the fourth login); the test waits it out.
        AUTH_LOCKOUT_WINDOW_SECONDS: '6',
        MAIL_WORKER: 'false',
      }),
    );
  });

  afterAll(async () => {
    await Promise.all([lockoutApp?.close(), rateApp?.close(), shortApp?.close()]);
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('30 concurrent wrong admin passwords: 10 are checked, 20 refused; then even the right one is refused', async () => {
    const answers = await burst(30, () =>
      login(lockoutApp, 'stark.localhost', demoAdmin.email, 'Wrong-Guess-001'),
    );
    expect(statuses(answers)).toEqual({ 401: 10, 429: 20 });
    for (const a of answers.filter((r) => r.statusCode === 401))
      expect(a.json()).toEqual({ type: 'unauthorized', message: 'Invalid email or password' });
    const locked = answers.find((r) => r.statusCode === 429)!;
    expect(locked.json()).toMatchObject({
      type: 'rate_limited',
      message: expect.stringMatching(
        /^Too many failed sign-in attempts for this account\. Try again in \d+ seconds\.$/,
      ),
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    // The right password during the lockout, under any spelling of the host, and through the
    // customer route (one identity per e-mail in Medusa): refused.
    for (const host of ['stark.localhost', 'STARK.LOCALHOST', 'Stark.localhost.', 'stark.localhost:8080'])
      expect((await login(lockoutApp, host, demoAdmin.email, demoAdmin.password)).statusCode).toBe(429);
    expect(
      (await login(lockoutApp, 'stark.localhost', demoAdmin.email, demoAdmin.password, 'customer'))
        .statusCode,
    ).toBe(429);
    // The lockout is per tenant and account: the same admin elsewhere, another account here, are fine.
    expect((await login(lockoutApp, 'acme.localhost', demoAdmin.email, demoAdmin.password)).statusCode).toBe(
      200,
    );
    expect(
      (await login(lockoutApp, 'stark.localhost', CUSTOMER, CUSTOMER_PASSWORD, 'customer')).statusCode,
    ).toBe(200);
  });

  it('an unknown e-mail is counted and locked exactly like an existing one, with the same answers', async () => {
    const ghost = 'nobody-here@aplt.localhost';
    const unknown = await burst(30, () => login(lockoutApp, 'stark.localhost', ghost, 'Wrong-Guess-001'));
    expect(statuses(unknown)).toEqual({ 401: 10, 429: 20 });
    const known = (await login(lockoutApp, 'stark.localhost', demoAdmin.email, 'Wrong-Guess-002')).statusCode;
    expect(known).toBe(429);

    const [lockedKnown, lockedUnknown] = await Promise.all([
      login(lockoutApp, 'stark.localhost', demoAdmin.email, demoAdmin.password),
      login(lockoutApp, 'stark.localhost', ghost, demoAdmin.password),
    ]);
    expect(shape(lockedUnknown)).toEqual(shape(lockedKnown));
    expect(shape(lockedKnown).status).toBe(429);
    // Before the lockout, too, a wrong password and an unknown address answer alike.
    const [wrongKnown, wrongUnknown] = await Promise.all([
      login(lockoutApp, 'acme.localhost', demoAdmin.email, 'Wrong-Guess-003'),
      login(lockoutApp, 'acme.localhost', 'someone-else@aplt.localhost', 'Wrong-Guess-003'),
    ]);
    expect(wrongUnknown.statusCode).toBe(401);
    expect(wrongUnknown.json()).toEqual(wrongKnown.json());
  });

  it('30 concurrent wrong customer passwords: 10 are checked, and the account is locked', async () => {
    const answers = await burst(30, () =>
      login(lockoutApp, 'acme.localhost', CUSTOMER, 'Wrong-Guess-001', 'customer'),
    );
    expect(statuses(answers)).toEqual({ 401: 10, 429: 20 });
    expect(
      (await login(lockoutApp, 'acme.localhost', CUSTOMER, CUSTOMER_PASSWORD, 'customer')).statusCode,
    ).toBe(429);
    // Case in the address does not buy a fresh bucket.
    expect(
      (await login(lockoutApp, 'acme.localhost', CUSTOMER.toUpperCase(), 'Wrong-Guess-004', 'customer'))
        .statusCode,
    ).toBe(429);
  });

  it('the rate limit counts atomically and one host under any spelling shares one bucket', async () => {
    const spellings = [
      'wayne.localhost',
      'WAYNE.LOCALHOST',
      'Wayne.localhost',
      'wayne.localhost.',
      'wayne.localhost:31337',
    ];
    const answers = await burst(30, (i) =>
      login(rateApp, spellings[i % spellings.length]!, `guess-${i}@aplt.localhost`, 'Wrong-Guess-001'),
    );
    // Limit 5 per window for this client and host: 30 at once, 5 get through.
    expect(statuses(answers)).toEqual({ 401: 5, 429: 25 });
    const limited = answers.find((r) => r.statusCode === 429)!;
    expect(limited.json()).toMatchObject({
      type: 'rate_limited',
      message: expect.stringContaining('Too many attempts'),
    });
    for (const host of spellings)
      expect((await login(rateApp, host, demoAdmin.email, demoAdmin.password)).statusCode).toBe(429);
    // Another tenant's bucket is its own.
    expect((await login(rateApp, 'hooli.localhost', demoAdmin.email, demoAdmin.password)).statusCode).toBe(
      200,
    );
  });

  it('the lockout ends when its window does', async () => {
    const wrong = await burst(3, () =>
      login(shortApp, 'hooli.localhost', demoAdmin.email, 'Wrong-Guess-001'),
    );
    expect(statuses(wrong)).toEqual({ 401: 3 });
    expect((await login(shortApp, 'hooli.localhost', demoAdmin.email, demoAdmin.password)).statusCode).toBe(
      429,
    );
    // Polling with the right password (each refused try counts, but does not extend the window).
    const ok = await until('lockout to end', async () => {
      const res = await login(shortApp, 'hooli.localhost', demoAdmin.email, demoAdmin.password);
      if (res.statusCode === 200) return res;
      expect(res.statusCode).toBe(429);
      return undefined;
    });
    expect(ok.json().token).toEqual(expect.any(String));
    // A success does not count as a failure: three more wrong ones are checked before it locks.
    const again = await burst(3, () =>
      login(shortApp, 'hooli.localhost', demoAdmin.email, 'Wrong-Guess-002'),
    );
    expect(statuses(again)).toEqual({ 401: 3 });
  });

  it('answers 400 to NUL bytes and lone surrogates in emailpass and reset bodies, never 5xx', async () => {
    const raw = (url: string, json: string, headers: Record<string, string> = {}) =>
      lockoutApp.inject({
        method: 'POST',
        url,
        payload: json,
        headers: { ...viaProxy('acme.localhost'), 'content-type': 'application/json', ...headers },
      });
    const cases: Array<[string, string]> = [
      ['/auth/user/emailpass', '{"email":"admin\\u0000@aplt.localhost","password":"x"}'],
      ['/auth/user/emailpass', '{"email":"admin@aplt.localhost","password":"pa\\u0000ss"}'],
      ['/auth/user/emailpass', '{"email":"admin@aplt.localhost\\ud800","password":"x"}'],
      ['/auth/customer/emailpass', '{"email":"a@b.localhost","password":"\\udc00lone"}'],
      ['/auth/customer/emailpass', '{"email":"a\\u0000@b.localhost","password":"x"}'],
      ['/auth/user/emailpass/reset-password', '{"identifier":"admin\\u0000@aplt.localhost"}'],
      ['/auth/customer/emailpass/reset-password', '{"identifier":"\\ud83d@aplt.localhost"}'],
      ['/auth/customer/emailpass/register', '{"email":"new@b.localhost","password":"Long-Enough-1\\u0000"}'],
    ];
    for (const [url, json] of cases) {
      const res = await raw(url, json);
      expect(res.statusCode, `${url} ${json}`).toBe(400);
      expect(res.json()).toMatchObject({
        type: 'invalid_data',
        message: expect.stringContaining('contains a NUL byte or an unpaired surrogate'),
      });
    }
    // The update route checks its bearer token first by Medusa's rule; with one, the body is checked.
    for (const password of ['New-Pass\\u0000word-1', 'New-Pass\\udbffword-1']) {
      const res = await raw('/auth/user/emailpass/update', `{"password":"${password}"}`, {
        authorization: 'Bearer some.reset.token',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { path: 'body.password', message: 'contains a NUL byte or an unpaired surrogate' },
      ]);
    }
    // A well-formed pair (an emoji) is fine: it reaches the login and is simply wrong.
    expect(
      (await raw('/auth/user/emailpass', '{"email":"admin@aplt.localhost","password":"\\ud83d\\ude00x"}'))
        .statusCode,
    ).toBe(401);
  });
});
