import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessAppForTest } from './access-app';
import { safeReturnUrl } from '../src/forward-auth/return-url';

const fwd = {
  'x-forwarded-method': 'GET',
  'x-forwarded-host': 'acme.localhost:8080',
  'x-forwarded-uri': '/app?x=1',
};
const html = 'text/html,application/xhtml+xml,*/*;q=0.8';

describe('/api/validate decisions and denial negotiation', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let redirectApp: Awaited<ReturnType<typeof createAccessAppForTest>>;
  const validate = (
    headers: Record<string, string>,
    remoteAddress = '127.0.0.9',
    target: typeof app = app,
    method: 'GET' | 'HEAD' = 'GET',
  ) => target.inject({ method, url: '/api/validate', headers, remoteAddress });

  beforeAll(async () => {
    fleet = await createTestFleet([]);
    app = await createAccessAppForTest(fleet.registry, {
      ACCESS_STATIC_WHITELIST: '127.0.0.1/32,::1/128,10.20.0.0/16,2001:db8::/32',
    });
    redirectApp = await createAccessAppForTest(fleet.registry, {
      ACCESS_DENIED_MODE: 'redirect',
      ACCESS_PUBLIC_URL: 'https://access.example.com',
    });
  });
  afterAll(async () => {
    await app?.close();
    await redirectApp?.close();
    await fleet?.cleanup();
  });

  it('answers 400 when a proxy of the X-Forwarded-Method/Host/Uri form left one of them out', async () => {
    const res = await validate({ 'x-forwarded-uri': '/app' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'invalid_data',
      missing: ['X-Forwarded-Method', 'X-Forwarded-Host'],
    });
  });

  it('allows loopback by configuration, and whitelisted IPv4 and IPv6 ranges', async () => {
    expect((await validate(fwd, '127.0.0.1')).statusCode).toBe(200);
    expect((await validate(fwd, '::1')).statusCode).toBe(200);
    expect((await validate(fwd, '10.20.3.4')).statusCode).toBe(200);
    expect((await validate(fwd, '2001:db8::7')).statusCode).toBe(200);
    expect((await validate(fwd, '10.21.0.1')).statusCode).toBe(401);
    expect((await validate(fwd, '2001:db9::1')).statusCode).toBe(401);
  });

  it('takes the right-most untrusted X-Forwarded-For address from a trusted proxy, never a client value', async () => {
    // Through the trusted proxy at 127.0.0.1: the client is the last entry the proxy appended.
    const viaProxy = await validate(
      { ...fwd, accept: 'application/json', 'x-forwarded-for': '10.20.0.5, 192.0.2.7' },
      '127.0.0.1',
    );
    expect(viaProxy.statusCode).toBe(401);
    expect(viaProxy.json().ip).toBe('192.0.2.7');
    // A client talking to us directly cannot claim an address at all.
    const direct = await validate(
      { ...fwd, 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' },
      '192.0.2.8',
    );
    expect(direct.statusCode).toBe(401);
    expect(direct.json().ip).toBe('192.0.2.8');
  });

  it('negotiates the denial: JSON for API clients and XHR, the page for browser GET, 303 for other methods, no body for HEAD', async () => {
    const api = await validate(fwd);
    expect(api.statusCode).toBe(401);
    expect(api.json()).toMatchObject({ type: 'unauthorized', ip: '127.0.0.9' });
    const xhr = await validate({ ...fwd, accept: html, 'x-requested-with': 'XMLHttpRequest' });
    expect(xhr.headers['content-type']).toContain('application/json');
    const fetchApi = await validate({ ...fwd, accept: html, 'sec-fetch-mode': 'cors' });
    expect(fetchApi.headers['content-type']).toContain('application/json');

    const page = await validate({ ...fwd, accept: html, 'sec-fetch-mode': 'navigate' });
    expect(page.statusCode).toBe(401);
    expect(page.body).toContain('127.0.0.9');
    expect(page.body).not.toMatch(/<(link|img|script)\b|src=|@import/);
    expect(page.body.length).toBeLessThan(4096);
    expect(page.body).toContain(
      `http://access.localhost:8080/login?rd=${encodeURIComponent('http://acme.localhost:8080/app?x=1')}`,
    );

    const head = await validate({ ...fwd, 'x-forwarded-method': 'HEAD', accept: html });
    expect(head.statusCode).toBe(401);
    expect(head.body).toBe('');

    const post = await validate({ ...fwd, 'x-forwarded-method': 'POST', accept: html });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toContain('/login?rd=');
  });

  it('redirects browsers to the login page with a checked return URL in redirect mode', async () => {
    const res = await validate(
      { ...fwd, accept: html, 'x-forwarded-proto': 'https' },
      '127.0.0.9',
      redirectApp,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      `https://access.example.com/login?rd=${encodeURIComponent('https://acme.localhost:8080/app?x=1')}`,
    );
    const foreign = await validate(
      { ...fwd, accept: html, 'x-forwarded-host': 'evil.example' },
      '127.0.0.9',
      redirectApp,
    );
    expect(foreign.headers.location).toBe('https://access.example.com/login');
  });

  it('never accepts a return URL outside the configured domains', () => {
    const domains = ['localhost'];
    expect(safeReturnUrl('http://acme.localhost:8080/app', domains)).toBe('http://acme.localhost:8080/app');
    expect(safeReturnUrl('//evil.example/x', domains)).toBeNull();
    expect(safeReturnUrl('https://evil.example/?localhost', domains)).toBeNull();
    expect(safeReturnUrl('https://localhost.evil.example/', domains)).toBeNull();
    expect(safeReturnUrl('javascript:alert(1)//localhost', domains)).toBeNull();
    expect(safeReturnUrl('http://user@acme.localhost/', domains)).toBeNull();
  });

  it('serves the login page with the return URL only when it is safe', async () => {
    const ok = await app.inject({ url: `/login?rd=${encodeURIComponent('http://acme.localhost/app')}` });
    expect(ok.body).toContain('"http://acme.localhost/app"');
    const bad = await app.inject({ url: `/login?rd=${encodeURIComponent('https://evil.example/')}` });
    expect(bad.body).not.toContain('evil.example');
    expect(bad.body).toContain('returnTo=null');
  });

  it('counts decisions by reason', async () => {
    const metrics = (await app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(
      /access_decisions_total\{decision="bad_request",reason="missing_forwarded_headers"\} 1/,
    );
    expect(metrics).toMatch(/access_decisions_total\{decision="allow",reason="whitelist"\} 4/);
  });
});
