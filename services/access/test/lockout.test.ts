import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { addressKey } from '../src/auth/throttle-keys';
import * as throttle from '../src/auth/throttle.repository';
import { createAccessAppForTest } from './access-app';
import { csrfSession, injectSend, solvedCaptcha, type Send, startLogin } from './helpers';

const PASSWORD = 'Correct-Horse-42!';
const LIMIT = 5;

/** Everything an attempt needs (CSRF pair, solved CAPTCHA) prepared first, so the posts race. */
async function prepared(send: Send, email: string, password: string) {
  const csrf = await csrfSession(send);
  const captcha = await solvedCaptcha(send);
  return () =>
    send('/api/auth/login', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { email, password, captcha },
    });
}

const tally = (answers: Array<{ status: number; json: () => { message?: string } }>) => ({
  // Each of these is one password that was really checked.
  checked: answers.filter((a) => a.status === 401 && a.json().message === 'Invalid e-mail or password')
    .length,
  limited: answers.filter((a) => a.status === 429).length,
  other: answers.filter((a) => a.status !== 429 && a.status !== 401).map((a) => a.status),
});

describe('login lockout: one atomic count per attempt, before the password is checked', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;

  beforeAll(async () => {
    fleet = await createTestFleet([]);
    app = await createAccessAppForTest(fleet.registry, {
      ACCESS_MAX_FAILURES: String(LIMIT),
      ACCESS_OTP_CHANNEL: 'log',
    });
    for (const email of [
      'victim@example.com',
      'target@example.com',
      'other@example.com',
      'third@example.com',
    ])
      await createUser({ db: app.accessDb! }, { email, password: PASSWORD, roles: [] });
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('30 concurrent wrong passwords from one address: 5 are checked, 25 refused, and the account is locked', async () => {
    const send = injectSend(app, '127.0.0.30');
    const attempts = [];
    for (let i = 0; i < 30; i++) attempts.push(await prepared(send, 'victim@example.com', `wrong-${i}`));
    const result = tally(await Promise.all(attempts.map((attempt) => attempt())));
    expect(result).toEqual({ checked: LIMIT, limited: 30 - LIMIT, other: [] });

    // The account is locked: the right password from elsewhere is refused with Retry-After.
    const locked = (await startLogin(injectSend(app, '127.0.0.31'), 'victim@example.com', PASSWORD)).res;
    expect(locked.status).toBe(429);
    expect(locked.json()).toMatchObject({ type: 'rate_limited' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // ... and so is the address, for any account.
    expect((await startLogin(send, 'other@example.com', PASSWORD)).res.status).toBe(429);
    // Others are not affected.
    expect((await startLogin(injectSend(app, '127.0.0.32'), 'other@example.com', PASSWORD)).res.status).toBe(
      200,
    );
  });

  it('30 concurrent guesses from 30 addresses, however the e-mail is spelled, check 5 passwords of one account', async () => {
    const spellings = ['target@example.com', 'TARGET@example.com', 'Target@Example.COM'];
    const attempts = [];
    for (let i = 0; i < 30; i++)
      attempts.push(await prepared(injectSend(app, `127.0.1.${i + 1}`), spellings[i % 3]!, `wrong-${i}`));
    const result = tally(await Promise.all(attempts.map((attempt) => attempt())));
    expect(result).toEqual({ checked: LIMIT, limited: 30 - LIMIT, other: [] });
    expect((await startLogin(injectSend(app, '127.0.2.1'), 'target@example.com', PASSWORD)).res.status).toBe(
      429,
    );
    // A refused attempt is not counted against its address: those clients may still sign in elsewhere.
    const refusedFrom = injectSend(app, '127.0.1.30');
    expect((await startLogin(refusedFrom, 'third@example.com', PASSWORD)).res.status).toBe(200);
  });

  it('never deadlocks when refused attempts are given back while others are counted on the same keys', async () => {
    // A refund that locked its two keys in scan order and an attempt that locked them in array
    // order each held one and waited for the other: PostgreSQL aborted one, the login answered 500.
    const limits = { max: LIMIT, windowSeconds: 600, banSeconds: 900 };
    const failures: string[] = [];
    for (let round = 0; round < 20; round++) {
      const keys = [`acct:race${round}@example.com`, `ip:10.9.0.${round}`];
      await Promise.all(
        Array.from({ length: 60 }, async () => {
          try {
            const r = await throttle.reserveAttempt(app.accessDb!, keys, limits);
            if (!r.allowed) await throttle.refundAttempt(app.accessDb!, keys, LIMIT);
          } catch (err) {
            failures.push(String(err));
          }
        }),
      );
    }
    expect(failures).toEqual([]);
    // Every refused attempt was given back: each pair of keys stays at the limit, banned.
    const bans = await throttle.listBans(app.accessDb!);
    expect(
      bans.filter((b) => b.key.includes('race') || b.key.startsWith('ip:10.9.0.')).map((b) => b.failures),
    ).toEqual(Array<number>(40).fill(LIMIT));
  });

  it('does not count right passwords: more sign-ins than the limit from one address all pass', async () => {
    const send = injectSend(app, '127.0.0.40');
    for (let i = 0; i < LIMIT + 2; i++)
      expect((await startLogin(send, 'third@example.com', PASSWORD)).res.status).toBe(200);
  });

  it('counts IPv6 clients per /64, so fresh addresses of one subscriber share a counter', async () => {
    expect(addressKey('2001:db8:1:2::a')).toBe('ip:2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:0:0:1')).toBe('ip:2001:db8:1:2::/64');
    expect(addressKey('::ffff:192.0.2.7')).toBe('ip:192.0.2.7');
    expect(addressKey('::1')).toBe('ip:0:0:0:0::/64');
    for (let i = 1; i <= LIMIT; i++) {
      const res = (await startLogin(injectSend(app, `2001:db8:1:2::${i}`), `nobody${i}@example.com`, 'x'))
        .res;
      expect(res.status).toBe(401);
    }
    const sameBlock = injectSend(app, '2001:db8:1:2:ffff::1');
    expect((await startLogin(sameBlock, 'nobody9@example.com', 'x')).res.status).toBe(429);
    const nextBlock = injectSend(app, '2001:db8:1:3::1');
    expect((await startLogin(nextBlock, 'nobody9@example.com', 'x')).res.status).toBe(401);
  });

  it('counts one-time codes before checking them too: concurrent wrong codes get at most 5 checks', async () => {
    const send = injectSend(app, '127.0.0.50');
    const { res, csrf } = await startLogin(send, 'other@example.com', PASSWORD);
    expect(res.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send('/api/auth/verify', {
          method: 'POST',
          headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
          body: { challenge_id: res.json().challenge_id, code: String(100000 + i) },
        }),
      ),
    );
    const wrong = answers.filter((a) => a.status === 401 && a.json().message === 'Wrong one-time code');
    expect(wrong.length).toBeLessThanOrEqual(LIMIT);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
  });
});
