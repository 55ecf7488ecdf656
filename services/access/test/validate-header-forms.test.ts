import type { AddressInfo } from 'node:net';
import { AssertionVerifier } from '@aplt/http';
import { createTestFleet, testSecrets, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { clientIpResolver } from '../src/forward-auth/client-ip';
import { createAccessAppForTest } from './access-app';

const PROXY = '127.0.0.1'; // a trusted proxy (TRUSTED_PROXIES default), not whitelisted here
const json = { accept: 'application/json' };

/**
 * Each form a proxy may ask /api/validate in: Caddy/Traefik (X-Forwarded-Method/Host/Uri),
 * nginx auth_request (Host + X-Original-URI [+ X-Original-Method]) and the spec's plain form
 * (X-Real-IP or X-Forwarded-For, Host, Cookie).
 */
describe('/api/validate header forms', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let session = '';
  const verifier = new AssertionVerifier(testSecrets().ACCESS_ASSERTION_PUBLIC_KEY);
  const validate = (headers: Record<string, string>, remoteAddress = PROXY) =>
    app.inject({ method: 'GET', url: '/api/validate', headers, remoteAddress });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    // Only 10.20.0.0/16 is whitelisted; loopback (the proxy) is trusted but not let through.
    app = await createAccessAppForTest(fleet.registry, { ACCESS_STATIC_WHITELIST: '10.20.0.0/16' });
    const user = await createUser(
      { db: app.accessDb! },
      { email: 'buyer@acme.example', password: 'Correct-Horse-42!', roles: [], tenantId: 'acme' },
    );
    session = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(session),
      userId: user.id,
      ip: '192.0.2.1',
      userAgent: 'test',
      hours: 1,
    });
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('plain form: the client in X-Real-IP or X-Forwarded-For, the host from Host, the session from Cookie', async () => {
    const byRealIp = await validate({ host: 'acme.localhost:8080', 'x-real-ip': '10.20.1.2' });
    expect(byRealIp.statusCode).toBe(200);
    expect(
      await verifier.verify(String(byRealIp.headers['x-access-assertion']), 'acme.localhost'),
    ).toMatchObject({ sub: 'whitelist', tenant: 'acme', host: 'acme.localhost' });

    const byXff = await validate({ host: 'acme.localhost', 'x-forwarded-for': '192.0.2.50, 10.20.1.3' });
    expect(byXff.statusCode).toBe(200);

    const denied = await validate({ ...json, host: 'acme.localhost', 'x-real-ip': '192.0.2.7' });
    expect(denied.statusCode).toBe(401);
    // Without a path the host's root is the return target.
    expect(denied.json()).toMatchObject({
      type: 'unauthorized',
      ip: '192.0.2.7',
      login_url: `http://access.localhost/login?rd=${encodeURIComponent('http://acme.localhost/')}`,
    });

    const bySession = await validate({
      host: 'acme.localhost',
      'x-real-ip': '192.0.2.7',
      cookie: `other=1; aplt_session=${session}`,
    });
    expect(bySession.statusCode).toBe(200);
    expect(bySession.headers['x-auth-via']).toBe('session');
    expect(
      await verifier.verify(String(bySession.headers['x-access-assertion']), 'acme.localhost'),
    ).toMatchObject({ sub: 'buyer@acme.example', tenant: 'acme', reason: 'session' });
  });

  it('believes X-Real-IP and X-Forwarded-For only from a trusted proxy', async () => {
    const direct = await validate(
      { ...json, host: 'acme.localhost', 'x-real-ip': '10.20.1.2', 'x-forwarded-for': '10.20.1.2' },
      '192.0.2.9',
    );
    expect(direct.statusCode).toBe(401);
    expect(direct.json().ip).toBe('192.0.2.9');
    // X-Real-IP is one address; anything else is not believed and the chain rule applies.
    const junk = await validate({ ...json, host: 'acme.localhost', 'x-real-ip': '10.20.1.2, 1.2.3.4' });
    expect(junk.json().ip).toBe(PROXY);
  });

  it('nginx auth_request form: X-Original-URI and X-Original-Method shape the denial and the return URL', async () => {
    const nginx = {
      host: 'acme.localhost:8080',
      'x-original-uri': '/app/orders?page=2',
      'x-real-ip': '192.0.2.7',
      'x-forwarded-for': '192.0.2.7',
      accept: 'text/html',
    };
    const page = await validate(nginx);
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(
      `login?rd=${encodeURIComponent('http://acme.localhost:8080/app/orders?page=2')}`,
    );
    // The subrequest is a GET; the original method comes in X-Original-Method.
    const post = await validate({ ...nginx, 'x-original-method': 'POST' });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toContain(encodeURIComponent('/app/orders?page=2'));
    const allowed = await validate({ ...nginx, 'x-real-ip': '10.20.9.9' });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['x-auth-via']).toBe('whitelist');
  });

  it('Caddy/Traefik form: X-Forwarded-Host wins over Host, and a client-sent X-Real-IP or X-Original-URI is ignored', async () => {
    const caddy = {
      ...json,
      host: '127.0.0.1:3334',
      'x-forwarded-method': 'GET',
      'x-forwarded-host': 'acme.localhost',
      'x-forwarded-uri': '/app',
      'x-forwarded-for': '192.0.2.7',
      // Caddy and Traefik pass these on from the client untouched.
      'x-real-ip': '10.20.1.2',
      'x-original-uri': '/elsewhere',
    };
    const res = await validate(caddy);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      ip: '192.0.2.7',
      login_url: `http://access.localhost/login?rd=${encodeURIComponent('http://acme.localhost/app')}`,
    });
    const ok = await validate({ ...caddy, 'x-forwarded-for': '10.20.4.4' });
    expect(ok.statusCode).toBe(200);
    expect(await verifier.verify(String(ok.headers['x-access-assertion']), 'acme.localhost')).toMatchObject({
      host: 'acme.localhost',
      tenant: 'acme',
    });
  });

  it('answers each form the same on the raw fast path over a real socket', async () => {
    await app.listen({ port: 0, host: PROXY });
    const url = `http://${PROXY}:${(app.server.address() as AddressInfo).port}/api/validate`;
    const ask = async (headers: Record<string, string>) => {
      const res = await fetch(url, { headers: { ...json, ...headers } });
      return {
        status: res.status,
        ip: res.status === 401 ? ((await res.json()) as { ip: string }).ip : null,
      };
    };
    // fetch cannot set Host; the access service's own address stands for an unknown host.
    expect(await ask({ 'x-real-ip': '10.20.0.1' })).toEqual({ status: 200, ip: null });
    expect(await ask({ 'x-real-ip': '192.0.2.3' })).toEqual({ status: 401, ip: '192.0.2.3' });
    expect(await ask({ 'x-original-uri': '/x', 'x-forwarded-for': '10.20.0.2' })).toEqual({
      status: 200,
      ip: null,
    });
    expect(
      await ask({
        'x-forwarded-method': 'GET',
        'x-forwarded-host': 'acme.localhost',
        'x-forwarded-uri': '/',
        'x-real-ip': '10.20.0.3',
        'x-forwarded-for': '192.0.2.4',
      }),
    ).toEqual({ status: 401, ip: '192.0.2.4' });
  });

  it('client-ip: a trusted peer’s X-Real-IP wins when passed, an untrusted peer names only itself', () => {
    const ip = clientIpResolver(['127.0.0.1/32']);
    expect(ip('127.0.0.1', '198.51.100.1', '203.0.113.5')).toBe('203.0.113.5');
    expect(ip('127.0.0.1', undefined, '::ffff:203.0.113.6')).toBe('203.0.113.6');
    expect(ip('127.0.0.1', '198.51.100.1', 'not-an-ip')).toBe('198.51.100.1');
    expect(ip('192.0.2.1', '198.51.100.1', '203.0.113.5')).toBe('192.0.2.1');
    expect(ip('127.0.0.1', '198.51.100.1')).toBe('198.51.100.1');
  });
});
