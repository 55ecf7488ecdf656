import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { createAccessAppForTest } from './access-app';
import { csrfSession, injectSend, solvedCaptcha } from './helpers';

/** What the proxy adds to every request it forwards to the access host. */
const viaTheProxy = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'access.localhost' };

describe('operator routes, bad strings and constant-time comparisons on the access service', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  const cookie: Record<string, string> = {};

  async function sessionCookie(email: string, roles: string[]) {
    const user = await createUser({ db: app.accessDb! }, { email, password: 'Correct-Horse-42!', roles });
    const token = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(token),
      userId: user.id,
      ip: '127.0.0.1',
      userAgent: 't',
      hours: 1,
    });
    return `aplt_session=${token}`;
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    app = await createAccessAppForTest(fleet.registry);
    cookie.admin = await sessionCookie('admin@example.com', ['access-admin']);
    cookie.licenses = await sessionCookie('licenses@example.com', ['license-admin']);
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('/metrics and /docs: 404 through the proxy for anyone but an access admin, open on the direct port', async () => {
    for (const url of ['/metrics', '/docs/json']) {
      const anon = await app.inject({ url, headers: viaTheProxy });
      expect(anon.statusCode, url).toBe(404);
      expect(anon.json()).toMatchObject({ type: 'not_found' });
      expect(anon.body).not.toContain('access_decisions_total');
      const notAdmin = await app.inject({ url, headers: { ...viaTheProxy, cookie: cookie.licenses! } });
      expect(notAdmin.statusCode, url).toBe(404);
      const admin = await app.inject({ url, headers: { ...viaTheProxy, cookie: cookie.admin! } });
      expect(admin.statusCode, url).toBe(200);
      // A direct request from this machine to the service's own port (inject comes from 127.0.0.1).
      expect((await app.inject({ url })).statusCode, url).toBe(200);
      // Not from another machine, though, even without forwarded headers.
      expect((await app.inject({ url, remoteAddress: '192.0.2.9' })).statusCode, url).toBe(404);
    }
    expect((await app.inject({ url: '/metrics' })).body).toContain('# TYPE access_decisions_total counter');
  });

  it('a NUL in a cookie or ticket that forward auth decodes by hand is a 400, never a 500', async () => {
    const validate = (headers: Record<string, string>) =>
      app.inject({
        url: '/api/validate',
        remoteAddress: '127.0.0.9',
        headers: {
          'x-forwarded-method': 'GET',
          'x-forwarded-host': 'acme.localhost',
          'x-forwarded-uri': '/',
          ...headers,
        },
      });
    for (const c of ['aplt_session=%00', 'aplt_device=ab%00cd', 'x=1; aplt_session=a%00']) {
      const res = await validate({ cookie: c });
      expect(res.statusCode, c).toBe(400);
      expect(res.json()).toMatchObject({
        type: 'invalid_data',
        issues: [{ path: expect.stringMatching(/^cookie aplt_/) }],
      });
    }
    const ticket = await validate({ 'x-forwarded-uri': '/_access/callback?ticket=ab%00' });
    expect(ticket.statusCode).toBe(400);
    expect(ticket.json().issues[0].path).toBe('query.ticket');
    // Other percent escapes are fine and still simply unknown credentials.
    expect((await validate({ cookie: 'aplt_session=a%2Fb' })).statusCode).toBe(401);
    // ... on the Fastify routes too, whose cookies the cookie plugin decodes.
    const me = await app.inject({ url: '/api/auth/me', headers: { cookie: 'aplt_session=%00' } });
    expect(me.statusCode).toBe(400);
    const send = injectSend(app);
    const login = await send('/api/auth/login', {
      method: 'POST',
      headers: (({ token, cookie: c }) => ({ 'x-csrf-token': token, cookie: c }))(await csrfSession(send)),
      body: { email: 'a\u0000@example.com', password: 'x', captcha: await solvedCaptcha(send) },
    });
    expect(login.status).toBe(400);
  });

  it('compares CSRF tokens and CAPTCHA signatures in constant time without crashing on non-ASCII', async () => {
    const send = injectSend(app);
    const csrf = await csrfSession(send);
    // Same length in characters, twice the bytes: timingSafeEqual threw on this (a 500).
    const accented = 'é'.repeat(csrf.token.length);
    const wrongCsrf = await send('/api/auth/logout', {
      method: 'POST',
      headers: { 'x-csrf-token': accented, cookie: csrf.cookie },
    });
    expect(wrongCsrf.status).toBe(403);
    expect(wrongCsrf.json()).toMatchObject({ type: 'not_allowed', csrf: true });
    const right = await send('/api/auth/logout', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
    });
    expect(right.status).toBe(200);

    const captcha = await solvedCaptcha(send);
    for (const signature of [
      'é'.repeat(64),
      String(captcha.signature).replace(/.$/, (c: string) => (c === '0' ? '1' : '0')),
    ]) {
      const res = await send('/api/auth/login', {
        method: 'POST',
        headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
        body: {
          email: 'admin@example.com',
          password: 'Correct-Horse-42!',
          captcha: { ...captcha, signature },
        },
      });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data', captcha: 'invalid' });
    }
  });
});
