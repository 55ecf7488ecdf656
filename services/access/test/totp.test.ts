import { createTestFleet, startSmtpSink, type SmtpSink, type TestFleet } from '@aplt/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { openSecret, sealSecret } from '../src/auth/totp';
import { createAccessAppForTest } from './access-app';
import { codeFromMail, cookieHeader, cookiesOf, injectSend, type Send, startLogin } from './helpers';

const PASSWORD = 'Correct-Horse-42!';

/** The code an authenticator app shows `stepsAhead` 30-second steps from now. */
const appCode = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

describe('authenticator app (TOTP) as the second factor, with recovery codes', () => {
  let fleet: TestFleet;
  let smtp: SmtpSink;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let send: Send;

  beforeAll(async () => {
    fleet = await createTestFleet([]);
    smtp = await startSmtpSink();
    app = await createAccessAppForTest(fleet.registry, {
      SMTP_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      ACCESS_MAX_FAILURES: '50',
    });
    send = injectSend(app);
    for (const email of ['tom@example.com', 'uma@example.com', 'vic@example.com'])
      await createUser({ db: app.accessDb! }, { email, password: PASSWORD, roles: [] });
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await fleet?.cleanup();
  });

  /** A signed-in session of `email` through the e-mailed code; returns a request function. */
  async function signedIn(email: string, s: Send = send) {
    const before = smtp.messages.length;
    const { res, csrf } = await startLogin(s, email, PASSWORD);
    expect(res.json()).toMatchObject({ channel: 'email' });
    const mail = await smtp.waitFor(
      (m) => smtp.messages.indexOf(m) >= before && m.envelope.to.includes(email),
    );
    const verify = await s('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: codeFromMail(mail.parsed.text ?? '') },
    });
    expect(verify.status).toBe(200);
    const cookie = `${csrf.cookie}; ${cookieHeader({ aplt_session: cookiesOf(verify).aplt_session! })}`;
    return (path: string, body?: unknown) =>
      s(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { cookie, 'x-csrf-token': csrf.token },
        ...(body === undefined ? {} : { body }),
      });
  }

  /** Enrols `email` and returns the app's secret and the recovery codes. */
  async function enrol(email: string) {
    const api = await signedIn(email);
    const setup = await api('/api/auth/totp/setup', { password: PASSWORD });
    expect(setup.status).toBe(200);
    const { secret } = setup.json();
    const enabled = await api('/api/auth/totp/enable', { code: await appCode(secret) });
    expect(enabled.status).toBe(200);
    return { api, secret: secret as string, codes: enabled.json().recovery_codes as string[] };
  }

  /** Steps 1 and 2 of a login with `factor` ({code} or {recovery_code}); the verify response. */
  async function loginWith(email: string, factor: Record<string, string>, s: Send = send) {
    const mailsBefore = smtp.messages.length;
    const { res, csrf } = await startLogin(s, email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ step: 'otp', channel: 'authenticator' });
    const verify = await s('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, ...factor },
    });
    return { verify, mailsSent: smtp.messages.length - mailsBefore };
  }

  it('enrols with the password, a QR code and a code from the app; the secret is stored sealed', async () => {
    const api = await signedIn('tom@example.com');
    expect((await api('/api/auth/totp')).json()).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });
    const wrongPassword = await api('/api/auth/totp/setup', { password: 'not-it' });
    expect(wrongPassword.status).toBe(401);
    expect((await api('/api/auth/totp/enable', { code: '123456' })).status).toBe(409);

    const setup = await api('/api/auth/totp/setup', { password: PASSWORD });
    expect(setup.status).toBe(200);
    const body = setup.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_uri).toContain(`secret=${body.secret}`);
    expect(body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/APLT%20Access:tom%40example\.com\?/);
    expect(body.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(setup.headers['cache-control']).toBe('no-store');

    // Not on yet: a wrong code does not turn it on, and the login still sends a code by e-mail.
    const wrong = await api('/api/auth/totp/enable', {
      code: (Number(await appCode(body.secret)) ^ 1).toString().padStart(6, '0'),
    });
    expect(wrong.status).toBe(422);
    expect((await api('/api/auth/totp')).json()).toMatchObject({ enabled: false });

    const enabled = await api('/api/auth/totp/enable', { code: await appCode(body.secret) });
    expect(enabled.status).toBe(200);
    const codes = enabled.json().recovery_codes as string[];
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await api('/api/auth/totp')).json()).toMatchObject({ enabled: true, recovery_codes_left: 8 });
    // A second set-up while one is on is refused.
    expect((await api('/api/auth/totp/setup', { password: PASSWORD })).status).toBe(409);

    const row = await app
      .accessDb!.selectFrom('access_users')
      .select(['id', 'totp_secret'])
      .where('email', '=', 'tom@example.com')
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(body.secret);
    const codeRows = await app
      .accessDb!.selectFrom('access_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', row.id)
      .execute();
    for (const { code_hash } of codeRows) expect(codes.some((c) => code_hash.includes(c))).toBe(false);
  });

  it('seals the secret to its key and its user', () => {
    const key = 'k'.repeat(20) + 'abcdefghijklmnop';
    const sealed = sealSecret(key, 7, 'JBSWY3DPEHPK3PXP');
    expect(openSecret(key, 7, sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(openSecret(key, 8, sealed)).toBeNull();
    expect(openSecret(`${key}x`, 7, sealed)).toBeNull();
    expect(openSecret(key, 7, `${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(openSecret(key, 7, 'garbage')).toBeNull();
  });

  it('signs in with the app code instead of a mail; a code works once, even when sent twice at once', async () => {
    const { secret } = await enrol('uma@example.com');
    // The enrolment spent the current step: the next one is what the app shows in a moment.
    const next = await appCode(secret, 1);

    const [a, b] = await Promise.all([
      loginWith('uma@example.com', { code: next }, injectSend(app, '127.0.0.31')),
      loginWith('uma@example.com', { code: next }, injectSend(app, '127.0.0.32')),
    ]);
    expect([a.verify.status, b.verify.status].sort()).toEqual([200, 401]);
    expect(a.mailsSent + b.mailsSent).toBe(0);
    const winner = a.verify.status === 200 ? a.verify : b.verify;
    expect(winner.json()).toMatchObject({ step: 'done', email: 'uma@example.com' });
    expect(cookiesOf(winner).aplt_session).toBeTruthy();

    // A replay, an old code and the enrolment's code are all refused.
    expect((await loginWith('uma@example.com', { code: next })).verify.status).toBe(401);
    expect(
      (await loginWith('uma@example.com', { code: await appCode(secret, -2) })).verify.json(),
    ).toMatchObject({
      type: 'unauthorized',
      message: 'Wrong one-time code',
    });
  });

  it('takes each recovery code once; new codes replace the old; removal brings the e-mailed code back', async () => {
    const { api, codes } = await enrol('vic@example.com');
    const first = await loginWith('vic@example.com', {
      recovery_code: codes[0]!.toUpperCase().replace('-', ' '),
    });
    expect(first.verify.status).toBe(200);
    const again = await loginWith('vic@example.com', { recovery_code: codes[0]! });
    expect(again.verify.status).toBe(401);
    expect(again.verify.json()).toMatchObject({ message: 'Wrong or spent recovery code' });
    expect((await api('/api/auth/totp')).json()).toMatchObject({ recovery_codes_left: 7 });

    // Both factors at once, or neither: a clear 400.
    const { res, csrf } = await startLogin(send, 'vic@example.com', PASSWORD);
    const both = await send('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: '123456', recovery_code: codes[1] },
    });
    expect(both.status).toBe(400);
    expect(both.json()).toMatchObject({ type: 'invalid_data' });

    expect((await api('/api/auth/totp/recovery-codes', { password: 'not-it' })).status).toBe(401);
    const renewed = await api('/api/auth/totp/recovery-codes', { password: PASSWORD });
    expect(renewed.status).toBe(200);
    const fresh = renewed.json().recovery_codes as string[];
    expect(fresh).toHaveLength(8);
    expect((await loginWith('vic@example.com', { recovery_code: codes[1]! })).verify.status).toBe(401);
    expect((await loginWith('vic@example.com', { recovery_code: fresh[0]! })).verify.status).toBe(200);

    expect((await api('/api/auth/totp/disable', { password: 'not-it' })).status).toBe(401);
    expect((await api('/api/auth/totp/disable', { password: PASSWORD })).status).toBe(200);
    expect((await api('/api/auth/totp')).json()).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });
    expect((await api('/api/auth/totp/disable', { password: PASSWORD })).status).toBe(409);
    // Back to e-mailed codes, and a recovery code of the old set is no way in.
    const back = await signedIn('vic@example.com');
    expect((await back('/api/auth/totp')).status).toBe(200);
    const { res: r2, csrf: c2 } = await startLogin(send, 'vic@example.com', PASSWORD);
    expect(r2.json()).toMatchObject({ channel: 'email' });
    const recovered = await send('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': c2.token, cookie: c2.cookie },
      body: { challenge_id: r2.json().challenge_id, recovery_code: fresh[1] },
    });
    expect(recovered.status).toBe(401);
  });

  it('guards its routes: no session 401, no CSRF token 403, the page sends a stranger to the login', async () => {
    expect((await send('/api/auth/totp')).status).toBe(401);
    const noCsrf = await send('/api/auth/totp/setup', { method: 'POST', body: { password: PASSWORD } });
    expect(noCsrf.status).toBe(403);
    const page = await send('/account/security');
    expect(page.status).toBe(302);
    expect(page.headers.location).toMatch(/^\/login\?rd=/);
  });
});
