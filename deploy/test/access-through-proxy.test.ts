import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@aplt/http';
import { createLicenseClientFromEnv, HttpLicenseClient, type LicenseClientOptions } from '@aplt/licensing';
import { buildApp as buildAdmin } from '@aplt/service-admin/app';
import { createUser, seedTenantLicenses } from '@aplt/service-access/seed';
import {
  codeFromMail,
  cookieHeader,
  cookiesOf,
  createAccessAppForTest,
  type Send,
  startLogin,
} from '@aplt/service-access/testing';
import { loadConfig as adminConfig } from '@aplt/service-admin/config';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ADMIN = { email: 'ops@example.com', password: 'Correct-Horse-42!' };
const OTHER = '127.0.0.2';

describe('forward auth and licensing end to end through the proxy', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;
  let smtp: SmtpSink;
  let redis: TestRedis;
  let cacheDir: string;
  let licenses: HttpLicenseClient;
  const clientOpts: LicenseClientOptions = {
    apiUrl: 'http://127.0.0.1:1',
    serviceToken: testSecrets().SERVICE_TOKEN,
    cacheDir: '',
    refreshSeconds: 60,
    redis: null,
  };
  let session = '';
  let device = '';
  let csrf = { token: '', cookie: '' };
  let acmeSession = '';

  const access: Send = (path, opts = {}) =>
    proxy.request('access.localhost', path, { ...opts, localAddress: OTHER } as never);

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    redis = await createTestRedis();
    smtp = await startSmtpSink();
    cacheDir = mkdtempSync(join(tmpdir(), 'license-cache-'));
    Object.assign(clientOpts, {
      cacheDir,
      redis: { url: redis.url, prefix: redis.prefix },
      logger: { info: () => {}, warn: () => {} },
    });
    licenses = new HttpLicenseClient(clientOpts);
    const accessApp = await createAccessAppForTest(
      fleet.registry,
      { SMTP_PORT: String(smtp.port), SMTP_TLS_REJECT_UNAUTHORIZED: 'false', REDIS_PREFIX: redis.prefix },
      { redis: redis.redis },
    );
    await seedTenantLicenses(accessApp.accessDb!, ['acme', 'globex'], ['crm', 'ai_assist']);
    await createUser({ db: accessApp.accessDb! }, { ...ADMIN, roles: ['license-admin', 'access-admin'] });
    const env = { ...process.env, ...fleet.env, ...testSecrets(), LOG_LEVEL: 'silent' };
    // A stand-in documents backend: the trust boundary and the real license guard in front of
    // one guarded route.
    const guarded = await createApp({
      name: 'guarded',
      logLevel: 'silent',
      registry: fleet.registry,
      assertionPublicKey: testSecrets().ACCESS_ASSERTION_PUBLIC_KEY,
      licenses,
      docs: false,
    });
    guarded.get('/admin/aplt/quotations', { config: { feature: 'quotations' } }, async (request) => ({
      quotations: [],
      tenant: request.access?.tenant,
    }));
    proxy = await startTestProxy({
      access: accessApp,
      admin: await buildAdmin(
        { registry: fleet.registry, databases: fleet.databases, licenses },
        adminConfig(env),
      ),
      documents: guarded,
    });
    clientOpts.apiUrl = `http://127.0.0.1:${proxy.ports.access}`;
    await licenses.start(['acme', 'globex']);
  });

  afterAll(async () => {
    await licenses?.close();
    await proxy?.stop();
    await smtp?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  it('refuses a client that is not whitelisted with the denied page showing its IP', async () => {
    const res = await proxy.request('acme.localhost', '/app', {
      localAddress: OTHER,
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text()).toContain(`<code id="ip">${OTHER}</code>`);
    const login = /href="([^"]+)"/.exec(res.text())![1]!.replace(/&amp;/g, '&');
    // The test client's Host carries no port, so neither do the derived login and return URLs.
    expect(login).toBe(`http://access.localhost/login?rd=${encodeURIComponent('http://acme.localhost/app')}`);
    const api = await proxy.request('acme.localhost', '/api/identity', { localAddress: OTHER });
    expect(api.status).toBe(401);
    expect(api.json()).toMatchObject({ type: 'unauthorized', ip: OTHER });
  });

  it('a spoofed X-Forwarded-For or X-Real-IP does not whitelist the client', async () => {
    const res = await proxy.request('acme.localhost', '/api/identity', {
      localAddress: OTHER,
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' },
    });
    expect(res.status).toBe(401);
    expect(res.json().ip).toBe(OTHER);
  });

  it('a whitelisted IP passes without cookies, and a client-sent identity never reaches the upstream', async () => {
    const res = await proxy.request('acme.localhost', '/api/identity', {
      headers: {
        'x-auth-user': 'spoofed@example.com',
        'x-auth-roles': 'license-admin',
        'x-auth-via': 'session',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ user: null, roles: null, via: 'whitelist' });
  });

  it('logs in with CAPTCHA and the e-mailed code; then the same client passes with its session cookie', async () => {
    const started = await startLogin(access, ADMIN.email, ADMIN.password, { trust_device: true });
    expect(started.res.status).toBe(200);
    expect(started.res.json()).toMatchObject({ step: 'otp', channel: 'email' });
    csrf = started.csrf;
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(ADMIN.email));
    expect(mail.secure).toBe(true);
    const verify = await access('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: {
        challenge_id: started.res.json().challenge_id,
        code: codeFromMail(mail.parsed.text ?? ''),
        return_to: `http://acme.localhost:${proxy.port}/app`,
      },
    });
    expect(verify.status).toBe(200);
    // The login's cookies are the access host's own; the browser is sent on to acme's callback
    // with a one-time ticket, which acme's forward-auth check turns into cookies for acme.
    const done = verify.json() as { step: string; redirect: string };
    expect(done.step).toBe('done');
    const callback = new URL(done.redirect);
    expect(`${callback.origin}${callback.pathname}`).toBe(
      `http://acme.localhost:${proxy.port}/_access/callback`,
    );
    const cookies = cookiesOf(verify);
    session = cookies.aplt_session!;
    expect(String(verify.headers['set-cookie'])).toMatch(/aplt_session=[^;]+;.*HttpOnly.*SameSite=Lax/);

    const path = `${callback.pathname}${callback.search}`;
    // A ticket is bound to the host it was made for.
    const foreign = await proxy.request('globex.localhost', path, { localAddress: OTHER });
    expect(foreign.status).toBe(400);
    const handed = await proxy.request('acme.localhost', path, { localAddress: OTHER });
    expect(handed.status, handed.text()).toBe(302);
    expect(handed.headers.location).toBe(`http://acme.localhost:${proxy.port}/app`);
    const acme = cookiesOf(handed);
    expect(acme.aplt_session).toBeTruthy();
    expect(acme.aplt_session).not.toBe(session);
    device = acme.aplt_device!;
    expect(device).toBeTruthy();
    // ... and used once.
    expect((await proxy.request('acme.localhost', path, { localAddress: OTHER })).status).toBe(400);

    const res = await proxy.request('acme.localhost', '/api/identity', {
      localAddress: OTHER,
      headers: {
        cookie: cookieHeader({ aplt_session: acme.aplt_session! }),
        'x-auth-user': 'spoofed@example.com',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ user: ADMIN.email, roles: 'license-admin,access-admin', via: 'session' });
    acmeSession = acme.aplt_session!;
  });

  it('a trusted device passes with the device-token cookie alone', async () => {
    const res = await proxy.request('acme.localhost', '/api/identity', {
      localAddress: OTHER,
      headers: { cookie: cookieHeader({ aplt_device: device }) },
    });
    expect(res.status).toBe(200);
    expect(res.json().via).toBe('device');
  });

  it("the session handed over to acme is refused on another tenant's host", async () => {
    const res = await proxy.request('globex.localhost', '/api/identity', {
      localAddress: OTHER,
      headers: { cookie: cookieHeader({ aplt_session: acmeSession }) },
    });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ type: 'unauthorized', ip: OTHER });
  });

  it('toggling a feature makes the guarded route answer 403 within a second, and back', async () => {
    const guarded = () => proxy.request('acme.localhost', '/admin/aplt/quotations');
    const allowed = await guarded();
    expect(allowed.status).toBe(200);
    // The backend read the tenant from the assertion the proxy copied from forward auth's answer.
    expect(allowed.json().tenant).toBe('acme');
    const put = (enabled: boolean) =>
      access('/api/license/acme', {
        method: 'PUT',
        headers: { 'x-csrf-token': csrf.token, cookie: `${csrf.cookie}; aplt_session=${session}` },
        body: { feature: 'quotations', enabled, reason: 'e2e' },
      });
    const waitFor = async (status: number) => {
      const started = Date.now();
      for (;;) {
        const res = await guarded();
        if (res.status === status) return { res, ms: Date.now() - started };
        if (Date.now() - started > 1000) throw new Error(`still ${res.status} after 1 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const off = await put(false);
    expect(off.status).toBe(200);
    const refused = await waitFor(403);
    expect(refused.res.json()).toEqual({
      type: 'not_allowed',
      message: 'Feature not available',
      feature: 'quotations',
    });
    expect(refused.res.headers['x-license-revision']).toBe(off.json().revision);
    const features = (await proxy.request('acme.localhost', '/admin/features')).json();
    expect(features.features).not.toContain('quotations');
    expect(features.sidebar_items).not.toContain('01-quotations');
    expect(features.status).toMatchObject({ source: 'api', revision: off.json().revision });
    // The other tenant is untouched.
    expect((await proxy.request('globex.localhost', '/admin/aplt/quotations')).status).toBe(200);

    expect((await put(true)).status).toBe(200);
    await waitFor(200);
  });

  it('keeps the last snapshot when the license API is down, and starts in all-features mode with nothing', async () => {
    const down = {
      apiUrl: 'http://127.0.0.1:1',
      refreshSeconds: 60,
      redis: null,
      logger: { info: () => {}, warn: () => {} },
    };
    await await put2(false);
    await licenses.refresh('acme');
    const fromSnapshot = new HttpLicenseClient({ ...down, cacheDir });
    await fromSnapshot.start(['acme']);
    expect(fromSnapshot.status('acme')).toMatchObject({ source: 'snapshot' });
    expect(fromSnapshot.status('acme').lastError).toContain('license API unreachable');
    expect(fromSnapshot.isFeatureEnabled('acme', 'reports')).toBe(false);
    expect(fromSnapshot.isFeatureEnabled('acme', 'crm')).toBe(false);
    expect(fromSnapshot.isFeatureEnabled('acme', 'quotations')).toBe(true);
    await fromSnapshot.close();

    const empty = mkdtempSync(join(tmpdir(), 'license-empty-'));
    const fresh = createLicenseClientFromEnv(
      { LICENSE_API_URL: 'http://127.0.0.1:1', LICENSE_CACHE_DIR: empty, LICENSE_PUSH: 'false' },
      { logger: down.logger },
    );
    await fresh.start(['acme']);
    expect(fresh.status('acme').source).toBe('all-features');
    expect(fresh.isFeatureEnabled('acme', 'crm')).toBe(true);
    await fresh.close();
    rmSync(empty, { recursive: true, force: true });
  });

  const put2 = (enabled: boolean) =>
    access('/api/license/acme', {
      method: 'PUT',
      headers: { 'x-csrf-token': csrf.token, cookie: `${csrf.cookie}; aplt_session=${session}` },
      body: { feature: 'reports', enabled, reason: 'outage drill' },
    });

  it('counts every decision by reason in the metrics, shown through the proxy to an access admin only', async () => {
    expect((await proxy.request('access.localhost', '/metrics')).status).toBe(404);
    expect((await access('/docs/json')).status).toBe(404);
    const res = await access('/metrics', { headers: { cookie: `aplt_session=${session}` } });
    expect(res.status).toBe(200);
    const text = res.text();
    expect(text).toMatch(/access_decisions_total\{decision="allow",reason="whitelist"\} [1-9]/);
    expect(text).toMatch(/access_decisions_total\{decision="allow",reason="session"\} [1-9]/);
    expect(text).toMatch(/access_decisions_total\{decision="allow",reason="device"\} [1-9]/);
    expect(text).toMatch(/access_decisions_total\{decision="deny",reason="no_credentials"\} [1-9]/);
    expect(text).toMatch(/access_decisions_total\{decision="login",reason="ticket"\} 1/);
    expect(text).toMatch(/access_decisions_total\{decision="deny",reason="invalid_ticket"\} 2/);
  });

  it('logging out on the access host also ends the session handed to acme', async () => {
    const onAcme = () =>
      proxy.request('acme.localhost', '/api/identity', {
        localAddress: OTHER,
        headers: { cookie: cookieHeader({ aplt_session: acmeSession }), accept: 'application/json' },
      });
    expect((await onAcme()).status).toBe(200);
    const out = await access('/api/auth/logout', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: `${csrf.cookie}; aplt_session=${session}` },
    });
    expect(out.status).toBe(200);
    const after = await onAcme();
    expect(after.status).toBe(401);
    expect(after.json()).toMatchObject({ type: 'unauthorized' });
  });
});
