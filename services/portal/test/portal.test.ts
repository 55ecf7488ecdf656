import { sql } from '@aplt/db';
import type { AddressInfo } from 'node:net';
import {
  createTestMysqlDatabase,
  httpRequest,
  type SmtpSink,
  startHttpReceiver,
  startSmtpSink,
  type TestMysqlDatabase,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { otpChannelFromConfig } from '../src/auth/otp-channel';
import { loadConfig } from '../src/config';
import { addUser, type CsrfPair, csrfPair, mailedCode, PASSWORD, sessionCookie, withCsrf } from './helpers';

describe('portal auth and support tickets', () => {
  let mysql: TestMysqlDatabase;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let otp: ReturnType<typeof otpChannelFromConfig>;

  // This test client's CSRF token and secret cookie (GET /api/csrf), sent with every request.
  let csrf: CsrfPair;
  const json = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: withCsrf(csrf, {
        ...(cookie ? { cookie } : {}),
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      }),
      ...(method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
    });

  /** Password + e-mailed code; returns the session cookie. */
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const seen = sink.messages.length;
    const res = await json('POST', '/api/auth/login', undefined, { email, password });
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookie(res.headers['set-cookie']);
    const code = await mailedCode(sink, email, seen);
    const verified = await json('POST', '/api/auth/verify-2fa', cookie, { code });
    expect(verified.statusCode).toBe(200);
    return cookie;
  }

  beforeAll(async () => {
    [mysql, sink] = await Promise.all([createTestMysqlDatabase(), startSmtpSink()]);
    const config = loadConfig({
      ...process.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      PORTAL_BCRYPT_ROUNDS: '4',
      PORTAL_LOGIN_MAX_FAILURES: '4',
      DEVPROJECTS_URL: 'http://127.0.0.1:9',
    });
    otp = otpChannelFromConfig(config, { warn: () => {} });
    app = await buildApp({ db: mysql.db, otp }, config);
    csrf = await csrfPair(app);
    await addUser(mysql.db, 'admin@portal.test', 'admin');
    await addUser(mysql.db, 'dev@portal.test', 'developer');
    await addUser(mysql.db, 'anna@client.test', 'client');
    await addUser(mysql.db, 'bert@client.test', 'client');
    await addUser(mysql.db, 'gone@client.test', 'client', { active: false });
  });

  afterAll(async () => {
    await app?.close();
    otp?.close();
    await sink?.close();
    await mysql?.drop();
  });

  it('answers every failed login with exactly the spec body and 401', async () => {
    for (const body of [
      { email: 'nobody@portal.test', password: PASSWORD },
      { email: 'anna@client.test', password: 'wrong-password' },
      { email: 'gone@client.test', password: PASSWORD },
    ]) {
      const res = await json('POST', '/api/auth/login', undefined, body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Invalid credentials' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('logs in with password and an e-mailed code over STARTTLS; the session cookie is httpOnly, lax, 30 days', async () => {
    const seen = sink.messages.length;
    const res = await json('POST', '/api/auth/login', undefined, {
      email: 'Anna@Client.test',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, requires_2fa: true, channel: 'email' });
    const raw = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]).join('\n');
    expect(raw).toMatch(/service_portal_sid=[A-Za-z0-9_-]{43};/);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).toContain(`Max-Age=${30 * 86400}`);
    expect(raw).not.toContain('Secure');
    const cookie = sessionCookie(res.headers['set-cookie']);

    const mail = await sink.waitFor((m) => sink.messages.indexOf(m) >= seen);
    expect(mail.secure).toBe(true);
    expect(mail.envelope.to).toEqual(['anna@client.test']);

    // Half-way: the session exists, but nothing behind the second factor opens.
    const half = await json('GET', '/api/auth/check', cookie);
    expect(half.json()).toMatchObject({
      authenticated: false,
      session_active: true,
      second_factor_passed: false,
    });
    expect((await json('GET', '/api/support/tickets', cookie)).statusCode).toBe(401);

    const code = await mailedCode(sink, 'anna@client.test', seen);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await json('POST', '/api/auth/verify-2fa', cookie, { code: wrong });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ type: 'unauthorized', attempts_left: 4 });

    const ok = await json('POST', '/api/auth/verify-2fa', cookie, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ email: 'anna@client.test', role: 'client' });
    const check = await json('GET', '/api/auth/check', cookie);
    expect(check.json()).toMatchObject({
      authenticated: true,
      role: 'client',
      user: { email: 'anna@client.test' },
    });

    // The stored session id is the hash of the cookie, never the cookie itself.
    const token = cookie.split('=')[1] as string;
    const stored = await mysql.db.selectFrom('portal_sessions').select('id').execute();
    expect(stored.map((s) => s.id)).not.toContain(token);
  });

  it('burns the code after too many wrong tries', async () => {
    const seen = sink.messages.length;
    const res = await json('POST', '/api/auth/login', undefined, {
      email: 'bert@client.test',
      password: PASSWORD,
    });
    const cookie = sessionCookie(res.headers['set-cookie']);
    const code = await mailedCode(sink, 'bert@client.test', seen);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) await json('POST', '/api/auth/verify-2fa', cookie, { code: wrong });
    const late = await json('POST', '/api/auth/verify-2fa', cookie, { code });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ login_required: true });
  });

  it('refuses an expired code (10 minutes) and asks for a new login', async () => {
    await addUser(mysql.db, 'late@client.test', 'client');
    const seen = sink.messages.length;
    const res = await json('POST', '/api/auth/login', undefined, {
      email: 'late@client.test',
      password: PASSWORD,
    });
    const cookie = sessionCookie(res.headers['set-cookie']);
    const code = await mailedCode(sink, 'late@client.test', seen);
    const row = await mysql.db
      .selectFrom('portal_otp_codes')
      .select(sql<number>`TIMESTAMPDIFF(SECOND, created_at, expires_at)`.as('ttl'))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(row.ttl)).toBe(600);
    // Move the clock of this code past its expiry instead of waiting.
    await sql`UPDATE portal_otp_codes SET expires_at = CURRENT_TIMESTAMP(3) - INTERVAL 1 SECOND`.execute(
      mysql.db,
    );
    const late = await json('POST', '/api/auth/verify-2fa', cookie, { code });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ login_required: true });
  });

  it('undoes the login when the code cannot be sent', async () => {
    await addUser(mysql.db, 'nomail@client.test', 'client');
    const deadSmtp = loadConfig({
      ...process.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '9',
      PORTAL_BCRYPT_ROUNDS: '4',
    });
    const deadOtp = otpChannelFromConfig(deadSmtp, { warn: () => {} });
    const other = await buildApp({ db: mysql.db, otp: deadOtp }, deadSmtp);
    try {
      const before = await mysql.db
        .selectFrom('portal_sessions')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      const res = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: withCsrf(await csrfPair(other), { 'content-type': 'application/json' }),
        payload: JSON.stringify({ email: 'nomail@client.test', password: PASSWORD }),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ type: 'unavailable' });
      expect(res.headers['set-cookie']).toBeUndefined();
      const after = await mysql.db
        .selectFrom('portal_sessions')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    } finally {
      await other.close();
      deadOtp.close();
    }
  });

  it('sends the code to a messaging gateway over PORTAL_OTP_CHANNEL=webhook, and needs its URL', async () => {
    const gateway = await startHttpReceiver();
    const env = {
      ...process.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      PORTAL_BCRYPT_ROUNDS: '4',
      PORTAL_OTP_CHANNEL: 'webhook',
    };
    expect(() => otpChannelFromConfig(loadConfig(env), { warn: () => {} })).toThrow(/PORTAL_OTP_WEBHOOK_URL/);
    const config = loadConfig({ ...env, PORTAL_OTP_WEBHOOK_URL: `${gateway.url}/otp` });
    const other = await buildApp({ db: mysql.db }, config);
    try {
      const otherCsrf = await csrfPair(other);
      const res = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: withCsrf(otherCsrf, { 'content-type': 'application/json' }),
        payload: JSON.stringify({ email: 'bert@client.test', password: PASSWORD }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ requires_2fa: true, channel: 'webhook' });
      expect(gateway.requests).toHaveLength(1);
      const sent = gateway.requests[0]!.json();
      expect(sent).toMatchObject({ email: 'bert@client.test', expires_in: config.PORTAL_OTP_TTL_SECONDS });
      const verified = await other.inject({
        method: 'POST',
        url: '/api/auth/verify-2fa',
        headers: withCsrf(otherCsrf, {
          'content-type': 'application/json',
          cookie: sessionCookie(res.headers['set-cookie']),
        }),
        payload: JSON.stringify({ code: sent.code }),
      });
      expect(verified.statusCode, verified.body).toBe(200);
    } finally {
      await other.close();
      await gateway.close();
    }
  });

  it('throttles password guessing per e-mail', async () => {
    await addUser(mysql.db, 'target@client.test', 'client');
    for (let i = 0; i < 4; i++)
      expect(
        (await json('POST', '/api/auth/login', undefined, { email: 'target@client.test', password: 'nope' }))
          .statusCode,
      ).toBe(401);
    const locked = await json('POST', '/api/auth/login', undefined, {
      email: 'target@client.test',
      password: PASSWORD,
    });
    expect(locked.statusCode).toBe(429);
  });

  /** A login from another client address (inject's remoteAddress; not a trusted proxy). */
  const loginFrom = (remoteAddress: string, email: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: withCsrf(csrf, { 'content-type': 'application/json' }),
      payload: JSON.stringify({ email, password }),
    });

  /** Wrong passwords one at a time until the first 429; how many were checked (401) before it. */
  async function wrongUntilRefused(remoteAddress: string, email: () => string): Promise<number> {
    for (let checked = 0; checked <= 25; checked++) {
      const res = await loginFrom(remoteAddress, email(), 'wrong-guess');
      if (res.statusCode === 429) return checked;
      expect(res.statusCode).toBe(401);
    }
    throw new Error('never refused');
  }

  it('checks at most the limit of 40 concurrent wrong passwords on one account (one atomic step per attempt)', async () => {
    await addUser(mysql.db, 'burst@client.test', 'client');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        loginFrom(`198.51.100.${i + 1}`, 'burst@client.test', `guess-${i}`),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // 401 = the password was checked (and wrong); 429 = refused before any check. Limit: 4.
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(4);
    const recorded = await mysql.db
      .selectFrom('portal_login_failures')
      .select(sql<number>`count(*)`.as('n'))
      .where('email', '=', 'burst@client.test')
      .executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(checked);
    // Refused attempts were not counted: one at a time, exactly the rest of the limit is checked.
    expect(checked + (await wrongUntilRefused('198.51.100.98', () => 'burst@client.test'))).toBe(4);
    // The right password does not open a locked account either.
    expect((await loginFrom('198.51.100.99', 'burst@client.test', PASSWORD)).statusCode).toBe(429);
  });

  it('also counts attempts per client address across accounts (five times the limit)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom('203.0.113.7', `spray-${i}@client.test`, 'guess')),
    );
    const checked = answers.filter((r) => r.statusCode === 401).length;
    expect(answers.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    expect(checked).toBeLessThanOrEqual(20);
    // One at a time, the address gets the rest of its 20; then a fresh account from it is refused ...
    let n = 0;
    expect(checked + (await wrongUntilRefused('203.0.113.7', () => `fresh-${n++}@client.test`))).toBe(20);
    expect((await loginFrom('203.0.113.7', 'fresh2@client.test', 'guess')).statusCode).toBe(429);
    // ... while another address still gets its answer for the same account.
    expect((await loginFrom('203.0.113.8', 'fresh2@client.test', 'guess')).statusCode).toBe(401);
  });

  it('applies CSRF to the route the router matched, whatever the encoding of the path', async () => {
    // The router decodes `%61` to `a`: these reach /api/auth/login and /api/support/tickets.
    const reached = await app.inject({
      method: 'POST',
      url: '/%61pi/auth/login',
      headers: withCsrf(csrf, { 'content-type': 'application/json' }),
      payload: JSON.stringify({ email: 'nobody@portal.test', password: 'x' }),
    });
    expect(reached.statusCode).toBe(401);
    for (const url of ['/%61pi/auth/login', '/api/%73upport/tickets', '/%61%70%69/auth/logout']) {
      const form = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a&password=b',
      });
      expect(form.statusCode, url).toBe(415);
      expect(form.json().type).toBe('unsupported_media_type');
      const cross = await app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          origin: 'https://evil.example',
          host: 'portal.localhost',
        },
        payload: '{}',
      });
      expect(cross.statusCode, url).toBe(403);
      expect(cross.json().type).toBe('not_allowed');
    }
  });

  it('answers a non-ASCII Origin or CSRF header with 403, never a 5xx', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Latin-1 bytes in header values, as a raw client may send them.
    for (const headers of <Record<string, string>[]>[
      { origin: 'http://p\u00f6rtal.localhost', 'x-csrf-token': '\u00e9\u00e9\u00e9' },
      { origin: 'http://portal.localhost\u00ff', 'x-csrf-token': 'x' },
      { origin: '\u00a0', 'x-csrf-token': '\u00ff'.repeat(64) },
    ]) {
      const res = await httpRequest(`${base}/api/auth/logout`, {
        method: 'POST',
        host: 'portal.localhost',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json().type).toBe('not_allowed');
    }
    // The same request from the portal's own origin passes.
    const own = await httpRequest(`${base}/api/auth/logout`, {
      method: 'POST',
      host: 'portal.localhost',
      headers: withCsrf(csrf, { origin: 'http://portal.localhost', 'content-type': 'application/json' }),
      body: '{}',
    });
    expect(own.status).toBe(200);
  });

  it('answers a NUL byte or a lone surrogate in the login body with 400', async () => {
    for (const payload of [
      '{"email":"a\\u0000@client.test","password":"x"}',
      '{"email":"anna@client.test","password":"\\ud800"}',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: withCsrf(csrf, { 'content-type': 'application/json' }),
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });

  it('refuses state changes that are not JSON or come from another origin', async () => {
    const form = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    });
    expect(form.statusCode).toBe(415);
    const text = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(text.statusCode).toBe(415);
    const cross = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        host: 'portal.localhost',
      },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x' }),
    });
    expect(cross.statusCode).toBe(403);
  });

  it('changes the password by the rules and ends the other sessions', async () => {
    await addUser(mysql.db, 'carl@client.test', 'client');
    const first = await signIn('carl@client.test');
    const second = await signIn('carl@client.test');
    const weak = await json('POST', '/api/auth/change-password', second, {
      current_password: PASSWORD,
      new_password: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().issues.length).toBeGreaterThan(0);
    const wrongCurrent = await json('POST', '/api/auth/change-password', second, {
      current_password: 'not-it',
      new_password: 'An0ther-Strong-Pass!',
    });
    expect(wrongCurrent.statusCode).toBe(400);
    const ok = await json('POST', '/api/auth/change-password', second, {
      current_password: PASSWORD,
      new_password: 'An0ther-Strong-Pass!',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, other_sessions_ended: 1 });
    expect((await json('GET', '/api/auth/check', first)).json().session_active).toBe(false);
    expect((await json('GET', '/api/auth/check', second)).json().authenticated).toBe(true);
    const old = await json('POST', '/api/auth/login', undefined, {
      email: 'carl@client.test',
      password: PASSWORD,
    });
    expect(old.statusCode).toBe(401);
    await signIn('carl@client.test', 'An0ther-Strong-Pass!');
  });

  it('logs out: the session is gone and the cookie cleared', async () => {
    const cookie = await signIn('dev@portal.test');
    const out = await json('POST', '/api/auth/logout', cookie);
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/service_portal_sid=;/);
    expect((await json('GET', '/api/auth/check', cookie)).json().session_active).toBe(false);
    expect((await json('GET', '/api/support/tickets', cookie)).statusCode).toBe(401);
  });

  it('shows clients only their own tickets and lets staff manage all', async () => {
    const anna = await signIn('anna@client.test');
    const bert = await signIn('bert@client.test');
    const dev = await signIn('dev@portal.test');
    const admin = await signIn('admin@portal.test');

    const created = await json('POST', '/api/support/tickets', anna, {
      subject: 'Invoice PDF is empty',
      description: 'The PDF of invoice 12 has no lines',
      category: 'bug',
      priority: 'urgent',
      tenant_id: 'acme',
    });
    expect(created.statusCode).toBe(201);
    const ticket = created.json().ticket;
    expect(ticket).toMatchObject({
      status: 'open',
      category: 'bug',
      priority: 'urgent',
      user_email: 'anna@client.test',
    });
    expect(ticket.ticket_number).toBe(`TCK-${String(ticket.id).padStart(6, '0')}`);
    await json('POST', '/api/support/tickets', bert, { subject: 'Question', description: 'How do I ...?' });

    const annaList = (await json('GET', '/api/support/tickets', anna)).json();
    expect(annaList.tickets.map((t: { user_email: string }) => t.user_email)).toEqual(['anna@client.test']);
    expect((await json('GET', '/api/support/tickets', dev)).json().count).toBe(2);
    expect((await json('GET', `/api/support/tickets/${ticket.id}`, bert)).statusCode).toBe(404);
    expect(
      (await json('PUT', `/api/support/tickets/${ticket.id}`, bert, { status: 'closed' })).statusCode,
    ).toBe(404);

    const reply = await json('POST', `/api/support/tickets/${ticket.id}/messages`, dev, {
      body: 'Looking into it',
    });
    expect(reply.statusCode).toBe(201);
    await json('PUT', `/api/support/tickets/${ticket.id}`, dev, { status: 'waiting' });
    await json('POST', `/api/support/tickets/${ticket.id}/messages`, anna, { body: 'Any news?' });
    const detail = (await json('GET', `/api/support/tickets/${ticket.id}`, anna)).json();
    expect(detail.ticket.status).toBe('open');
    expect(
      detail.messages.map((m: { body: string; user_role: string }) => `${m.user_role}:${m.body}`),
    ).toEqual(['developer:Looking into it', 'client:Any news?']);

    expect(
      (await json('PUT', `/api/support/tickets/${ticket.id}`, dev, { tenant_id: 'globex' })).statusCode,
    ).toBe(403);
    expect(
      (await json('PUT', `/api/support/tickets/${ticket.id}`, anna, { priority: 'low' })).statusCode,
    ).toBe(403);
    expect(
      (await json('PUT', `/api/support/tickets/${ticket.id}`, anna, { status: 'resolved' })).statusCode,
    ).toBe(403);
    const adminEdit = await json('PUT', `/api/support/tickets/${ticket.id}`, admin, { tenant_id: 'globex' });
    expect(adminEdit.json().ticket.tenant_id).toBe('globex');
    const bad = await json('POST', '/api/support/tickets', anna, {
      subject: '',
      description: 'x',
      category: 'rant',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe('invalid_data');
  });

  it('guards create-dev-project: staff only, a tenant is needed, an unreachable service is a 502', async () => {
    const anna = await signIn('anna@client.test');
    const dev = await signIn('dev@portal.test');
    const noTenant = (
      await json('POST', '/api/support/tickets', anna, {
        subject: 'S',
        description: 'D',
        category: 'feature',
      })
    ).json().ticket;
    expect(
      (await json('POST', `/api/support/tickets/${noTenant.id}/create-dev-project`, anna)).statusCode,
    ).toBe(403);
    expect(
      (await json('POST', `/api/support/tickets/${noTenant.id}/create-dev-project`, dev)).statusCode,
    ).toBe(422);
    const withTenant = (
      await json('POST', '/api/support/tickets', anna, { subject: 'S', description: 'D', tenant_id: 'acme' })
    ).json().ticket;
    const down = await json('POST', `/api/support/tickets/${withTenant.id}/create-dev-project`, dev);
    expect(down.statusCode).toBe(502);
    const after = (await json('GET', `/api/support/tickets/${withTenant.id}`, dev)).json().ticket;
    expect(after.dev_project_id).toBeNull();
  });

  it('serves a login page whose embedded CSRF token works with the cookie it sets', async () => {
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/api/auth/login');
    const token = /const csrf="([^"]+)"/.exec(page.body)?.[1];
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^portal_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const login = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ email: 'nobody@portal.test', password: 'x' }),
      });
    const secret = cookie.split(';')[0]!;
    expect((await login({ cookie: secret, 'x-csrf-token': token! })).statusCode).toBe(401);
    // Without the token, with another client's token, or with the secret as the token: 403.
    for (const headers of <Record<string, string>[]>[
      { cookie: secret },
      { cookie: secret, 'x-csrf-token': csrf.token },
      { cookie: secret, 'x-csrf-token': secret.split('=')[1]! },
      { 'x-csrf-token': token! },
    ]) {
      const res = await login(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({ type: 'not_allowed', message: 'Missing or wrong CSRF token', csrf: true });
    }
  });
});
