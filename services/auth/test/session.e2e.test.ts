import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildGatekeeper } from '@aplt/service-gatekeeper/app';
import { loadConfig as gatekeeperConfig } from '@aplt/service-gatekeeper/config';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import { registerPublicUrls, secrets, seedDemoAdmins, testConfig } from './helpers';

/** Medusa's cookie session, as its admin dashboard uses it, through the proxy and across services. */
describe('POST/DELETE /auth/session', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let proxy: TestProxy;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'beta' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...secrets }),
      auth: await buildApp(deps, testConfig(redis, sink)),
      gatekeeper: await buildGatekeeper(deps, gatekeeperConfig({ LOG_LEVEL: 'silent', ...secrets })),
    });
  });
  afterAll(async () => {
    await proxy?.stop();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  const sessionCookie = (setCookie: string | string[] | undefined) =>
    [setCookie ?? []].flat().find((c) => c.startsWith('connect.sid='));

  it('turns a token into a session cookie that other services accept, and logs out', async () => {
    const login = await proxy.request('acme.localhost', '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    const { token } = login.json();

    const session = await proxy.request('acme.localhost', '/auth/session', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(session.status, session.text()).toBe(200);
    expect(session.json().user).toMatchObject({
      actor_type: 'user',
      actor_id: expect.stringMatching(/^user_/),
    });
    const cookie = sessionCookie(session.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const pair = cookie!.split(';')[0]!;

    // The gatekeeper's admin route, in another service, with the cookie alone.
    const list = await proxy.request('acme.localhost', '/admin/aplt/access-requests', {
      headers: { cookie: pair },
    });
    expect(list.status, list.text()).toBe(200);
    // A tenant's session is worthless on another tenant.
    expect(
      (await proxy.request('beta.localhost', '/admin/aplt/access-requests', { headers: { cookie: pair } }))
        .status,
    ).toBe(401);

    const logout = await proxy.request('acme.localhost', '/auth/session', {
      method: 'DELETE',
      headers: { cookie: pair },
    });
    expect(logout.status).toBe(200);
    expect(logout.json()).toEqual({ success: true });
    expect(sessionCookie(logout.headers['set-cookie'])).toMatch(/^connect\.sid=;/);
  });

  it('refuses a missing, forged or reset-purpose token', async () => {
    const none = await proxy.request('acme.localhost', '/auth/session', { method: 'POST' });
    expect(none.status).toBe(401);
    expect(none.json()).toEqual({ type: 'unauthorized', message: 'Invalid token' });
    const forged = await proxy.request('acme.localhost', '/auth/session', {
      method: 'POST',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJhY3Rvcl9pZCI6InUifQ.bad' },
    });
    expect(forged.status).toBe(401);
    expect(sessionCookie(forged.headers['set-cookie'])).toBeUndefined();
  });
});
