import { sql } from '@aplt/db';
import {
  createTestFleet,
  startHttpReceiver,
  startSmtpSink,
  type HttpReceiver,
  type SmtpSink,
  type TestFleet,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { createAccessAppForTest } from './access-app';
import {
  codeFromMail,
  cookieHeader,
  cookiesOf,
  csrfSession,
  injectSend,
  type Send,
  solvedCaptcha,
  startLogin,
} from './helpers';

const PASSWORD = 'Correct-Horse-42!';

describe('login, password policy, brute force, CSRF and sessions', () => {
  let fleet: TestFleet;
  let smtp: SmtpSink;
  let hook: HttpReceiver;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let webhookApp: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let send: Send;

  beforeAll(async () => {
    fleet = await createTestFleet([]);
    smtp = await startSmtpSink();
    hook = await startHttpReceiver();
    app = await createAccessAppForTest(fleet.registry, {
      SMTP_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      ACCESS_MAX_FAILURES: '3',
      ACCESS_PASSWORD_HISTORY: '2',
    });
    webhookApp = await createAccessAppForTest(fleet.registry, {
      ACCESS_OTP_CHANNEL: 'webhook',
      ACCESS_OTP_WEBHOOK_URL: `${hook.url}/otp`,
    });
    send = injectSend(app);
    for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com'])
      await createUser(
        { db: app.accessDb! },
        { email, password: PASSWORD, roles: email.startsWith('alice') ? ['access-admin'] : [] },
      );
    await createUser(
      { db: webhookApp.accessDb! },
      { email: 'erin@example.com', password: PASSWORD, roles: [] },
    );
  });

  afterAll(async () => {
    await app?.close();
    await webhookApp?.close();
    await smtp?.close();
    await hook?.close();
    await fleet?.cleanup();
  });

  async function fullLogin(email: string, password = PASSWORD, s: Send = send) {
    const before = smtp.messages.length;
    const { res, csrf } = await startLogin(s, email, password);
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor(
      (m) => smtp.messages.indexOf(m) >= before && m.envelope.to.includes(email),
    );
    const verify = await s('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: codeFromMail(mail.parsed.text ?? '') },
    });
    return { verify, csrf, challengeId: res.json().challenge_id as string };
  }

  it('rejects a form post without the CSRF token', async () => {
    const res = await send('/api/auth/login', {
      method: 'POST',
      body: { email: 'alice@example.com', password: PASSWORD, captcha: await solvedCaptcha(send) },
    });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ type: 'not_allowed', csrf: true });
  });

  it("checks CSRF with @fastify/csrf-protection: a token made from this browser's HttpOnly secret", async () => {
    const first = await send('/api/auth/csrf');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^aplt_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const mine = await csrfSession(send);
    const theirs = await csrfSession(send);
    const attempt = (headers: Record<string, string>) =>
      send('/api/auth/logout', { method: 'POST', headers });
    // The secret itself is no token (the old double-submit form), nor is another browser's token.
    const secret = mine.cookie.split('=')[1]!;
    for (const headers of <Record<string, string>[]>[
      { cookie: mine.cookie, 'x-csrf-token': secret },
      { cookie: mine.cookie, 'x-csrf-token': theirs.token },
      { cookie: mine.cookie },
      { 'x-csrf-token': mine.token },
      { cookie: mine.cookie, 'x-csrf-token': `${mine.token}x` },
    ]) {
      const res = await attempt(headers);
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ type: 'not_allowed', message: 'Missing or wrong CSRF token', csrf: true });
    }
    // The token travels in the header only: a form field is not read.
    const field = await send('/api/auth/logout', {
      method: 'POST',
      headers: { cookie: mine.cookie },
      body: { _csrf: mine.token },
    });
    expect(field.status).toBe(403);
    expect((await attempt({ cookie: mine.cookie, 'x-csrf-token': mine.token })).status).toBe(200);
    // A second token from the same secret works as well (tokens are salted, the secret is one).
    const again = (await send('/api/auth/csrf', { headers: { cookie: mine.cookie } })).json().csrf_token;
    expect(again).not.toBe(mine.token);
    expect((await attempt({ cookie: mine.cookie, 'x-csrf-token': again })).status).toBe(200);
  });

  it('rejects a CAPTCHA solution used twice (replay) and a forged one', async () => {
    const csrf = await csrfSession(send);
    const captcha = await solvedCaptcha(send);
    const headers = { 'x-csrf-token': csrf.token, cookie: csrf.cookie };
    const first = await send('/api/auth/login', {
      method: 'POST',
      headers,
      body: { email: 'dave@example.com', password: PASSWORD, captcha },
    });
    expect(first.status).toBe(200);
    const again = await send('/api/auth/login', {
      method: 'POST',
      headers,
      body: { email: 'dave@example.com', password: PASSWORD, captcha },
    });
    expect(again.status).toBe(400);
    expect(again.json()).toMatchObject({ captcha: 'replayed' });
    const forged = { ...(await solvedCaptcha(send)), number: 0, challenge: 'a'.repeat(64) };
    const bad = await send('/api/auth/login', {
      method: 'POST',
      headers,
      body: { email: 'dave@example.com', password: PASSWORD, captcha: forged },
    });
    expect(bad.status).toBe(400);
  });

  it('signs in, lists and revokes sessions, and logs out', async () => {
    const { verify, csrf } = await fullLogin('alice@example.com');
    expect(verify.status).toBe(200);
    expect(verify.json()).toMatchObject({ step: 'done', redirect: '/admin/licenses' });
    const cookie = `${csrf.cookie}; ${cookieHeader({ aplt_session: cookiesOf(verify).aplt_session! })}`;
    const me = await send('/api/auth/me', { headers: { cookie } });
    expect(me.json()).toMatchObject({ email: 'alice@example.com', roles: ['access-admin'] });

    const second = await fullLogin('alice@example.com');
    const sessions = (await send('/api/auth/sessions', { headers: { cookie } })).json();
    expect(sessions).toHaveLength(2);
    const other = sessions.find((s: { current: boolean }) => !s.current);
    const revoke = await send(`/api/auth/sessions/${other.id}`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': csrf.token },
    });
    expect(revoke.status).toBe(200);
    const secondCookie = cookieHeader({ aplt_session: cookiesOf(second.verify).aplt_session! });
    expect((await send('/api/auth/me', { headers: { cookie: secondCookie } })).status).toBe(401);

    // An idle session dies before it expires.
    const third = await fullLogin('alice@example.com');
    const thirdCookie = cookieHeader({ aplt_session: cookiesOf(third.verify).aplt_session! });
    await app
      .accessDb!.updateTable('access_sessions')
      .set({ last_seen_at: sql`now() - interval '3 hours'` })
      .where('id', '!=', sessions.find((s: { current: boolean }) => s.current).id)
      .execute();
    expect((await send('/api/auth/me', { headers: { cookie: thirdCookie } })).status).toBe(401);

    const out = await send('/api/auth/logout', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf.token },
    });
    expect(out.status).toBe(200);
    expect((await send('/api/auth/me', { headers: { cookie } })).status).toBe(401);
  });

  it('revokes a device token', async () => {
    const before = smtp.messages.length;
    const { res, csrf } = await startLogin(send, 'dave@example.com', PASSWORD, { trust_device: true });
    const mail = await smtp.waitFor(
      (m) => smtp.messages.indexOf(m) >= before && m.envelope.to.includes('dave@example.com'),
    );
    const verify = await send('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: codeFromMail(mail.parsed.text ?? '') },
    });
    const cookies = cookiesOf(verify);
    expect(cookies.aplt_device).toBeTruthy();
    const cookie = `${csrf.cookie}; aplt_session=${cookies.aplt_session}`;
    const validate = (c: string) =>
      send('/api/validate', {
        headers: {
          cookie: c,
          'x-forwarded-method': 'GET',
          'x-forwarded-host': 'acme.localhost',
          'x-forwarded-uri': '/',
        },
      });
    expect((await validate(`aplt_device=${cookies.aplt_device}`)).status).toBe(200);
    const devices = (await send('/api/auth/devices', { headers: { cookie } })).json();
    expect(devices).toHaveLength(1);
    const del = await send(`/api/auth/devices/${devices[0].id}`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': csrf.token },
    });
    expect(del.status).toBe(200);
    expect((await validate(`aplt_device=${cookies.aplt_device}`)).status).toBe(401);
  });

  it('bans an account after repeated failures with a clear 429, until an admin unbans it', async () => {
    const send = injectSend(app, '127.0.0.20');
    for (let i = 0; i < 3; i++)
      expect((await startLogin(send, 'bob@example.com', 'wrong-password')).res.status).toBe(401);
    const banned = (await startLogin(send, 'bob@example.com', PASSWORD)).res;
    expect(banned.status).toBe(429);
    expect(banned.json()).toMatchObject({ type: 'rate_limited' });
    expect(Number(banned.headers['retry-after'])).toBeGreaterThan(0);
    // The IP is banned too: another account from the same address is refused.
    expect((await startLogin(send, 'carol@example.com', PASSWORD)).res.status).toBe(429);
    // Another IP may still sign in to another account.
    expect((await startLogin(injectSend(app, '127.0.0.10'), 'carol@example.com', PASSWORD)).res.status).toBe(
      200,
    );

    const admin = await fullLogin('alice@example.com', PASSWORD, injectSend(app, '127.0.0.11'));
    const cookie = `${admin.csrf.cookie}; aplt_session=${cookiesOf(admin.verify).aplt_session}`;
    const adminSend = injectSend(app, '127.0.0.11');
    const bans = (await adminSend('/api/admin/bans', { headers: { cookie } })).json();
    expect(bans.map((b: { key: string }) => b.key).sort()).toEqual(['acct:bob@example.com', 'ip:127.0.0.20']);
    const unban = await adminSend('/api/admin/unban', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': admin.csrf.token },
      body: { email: 'bob@example.com', ip: '127.0.0.20' },
    });
    expect(unban.json()).toEqual({ cleared: 2 });
    expect((await startLogin(send, 'bob@example.com', PASSWORD)).res.status).toBe(200);
  });

  it('forces a password change after 28 days, enforcing complexity and history', async () => {
    await app
      .accessDb!.updateTable('access_users')
      .set({ password_changed_at: sql`now() - interval '29 days'` })
      .where('email', '=', 'carol@example.com')
      .execute();
    const s = injectSend(app, '127.0.0.12');
    const { verify, csrf } = await fullLogin('carol@example.com', PASSWORD, s);
    expect(verify.json()).toMatchObject({ step: 'change_password' });
    expect(cookiesOf(verify).aplt_session).toBeUndefined();
    const change = (new_password: string) =>
      s('/api/auth/change-password', {
        method: 'POST',
        headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
        body: { challenge_id: verify.json().challenge_id, new_password },
      });
    const weak = await change('short');
    expect(weak.status).toBe(422);
    expect(weak.json().problems).toContain('at least 12 characters');
    expect((await change(PASSWORD)).json()).toMatchObject({ problems: ['reused'] });
    const ok = await change('Brand-New-Secret-7');
    expect(ok.status).toBe(200);
    expect(cookiesOf(ok).aplt_session).toBeTruthy();
  });

  it('sends the one-time code over the webhook channel', async () => {
    const s = injectSend(webhookApp);
    const { res, csrf } = await startLogin(s, 'erin@example.com', PASSWORD);
    expect(res.json()).toMatchObject({ step: 'otp', channel: 'webhook' });
    const [req] = await hook.waitForRequests(1);
    expect(req!.url).toBe('/otp');
    expect(req!.json()).toMatchObject({ email: 'erin@example.com', code: expect.stringMatching(/^\d{6}$/) });
    const wrong = await s('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: {
        challenge_id: res.json().challenge_id,
        code: req!.json().code === '000000' ? '111111' : '000000',
      },
    });
    expect(wrong.status).toBe(401);
    const right = await s('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: req!.json().code },
    });
    expect(right.status).toBe(200);
  });
});
