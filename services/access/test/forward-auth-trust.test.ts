import type { AddressInfo } from 'node:net';
import { AssertionVerifier } from '@aplt/http';
import { createTestFleet, testSecrets, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLoginTicket } from '../src/auth/login-ticket.service';
import { createUser } from '../src/auth/login.service';
import { insertDeviceToken, insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { createAccessAppForTest } from './access-app';
import { cookiesOf } from './helpers';

const CLIENT = '127.0.0.9'; // not whitelisted: only cookies can let it through

describe('forward auth: identity assertion on allow, tenant binding, host-bound hand-over sessions', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  const verifier = new AssertionVerifier(testSecrets().ACCESS_ASSERTION_PUBLIC_KEY);
  const creds: Record<string, { session: string; device: string; userId: number }> = {};

  const validate = (host: string, headers: Record<string, string> = {}, remoteAddress = CLIENT) =>
    app.inject({
      method: 'GET',
      url: '/api/validate',
      remoteAddress,
      headers: {
        'x-forwarded-method': 'GET',
        'x-forwarded-host': host,
        'x-forwarded-uri': '/app',
        accept: 'application/json',
        ...headers,
      },
    });
  const claimsOf = async (res: { headers: Record<string, unknown> }, host: string) =>
    verifier.verify(String(res.headers['x-access-assertion']), host);

  async function credentialsFor(email: string, roles: string[], tenantId: string | null) {
    const user = await createUser(
      { db: app.accessDb! },
      { email, password: 'Correct-Horse-42!', roles, tenantId },
    );
    const session = newToken();
    const device = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(session),
      userId: user.id,
      ip: CLIENT,
      userAgent: 'test',
      hours: 1,
    });
    await insertDeviceToken(app.accessDb!, { id: tokenHash(device), userId: user.id, label: 't', days: 1 });
    return { session, device, userId: user.id };
  }

  beforeAll(async () => {
    fleet = await createTestFleet([
      { id: 'acme', hosts: ['acme.localhost', 'www.acme.example'] },
      { id: 'hooli' },
      { id: 'stark' },
    ]);
    app = await createAccessAppForTest(fleet.registry);
    creds.acme = await credentialsFor('buyer@acme.example', ['tenant-admin'], 'acme');
    creds.staff = await credentialsFor('ops@aplt.example', ['access-admin'], null);
    creds.acmeOps = await credentialsFor('ops@acme.example', ['license-admin'], 'acme');
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('signs who passed and why: whitelist, session and device, for the normalised host and its tenant', async () => {
    const listed = await validate('ACME.localhost.:8080', {}, '127.0.0.1');
    expect(listed.statusCode).toBe(200);
    expect(await claimsOf(listed, 'acme.localhost')).toMatchObject({
      iss: 'aplt-access',
      aud: 'aplt-backend',
      sub: 'whitelist',
      host: 'acme.localhost',
      tenant: 'acme',
      reason: 'whitelist',
      roles: [],
    });
    const bySession = await validate('hooli.localhost', { cookie: `aplt_session=${creds.staff!.session}` });
    expect(bySession.statusCode).toBe(200);
    const claims = await claimsOf(bySession, 'hooli.localhost');
    expect(claims).toMatchObject({
      sub: 'ops@aplt.example',
      host: 'hooli.localhost',
      tenant: 'hooli',
      reason: 'session',
      roles: ['access-admin'],
    });
    expect(claims!.exp - claims!.iat).toBe(60);
    // The headers the proxy has always copied are still there.
    expect(bySession.headers).toMatchObject({
      'x-auth-user': 'ops@aplt.example',
      'x-auth-roles': 'access-admin',
      'x-auth-via': 'session',
    });
    const byDevice = await validate('www.acme.example', { cookie: `aplt_device=${creds.acme!.device}` });
    expect(await claimsOf(byDevice, 'www.acme.example')).toMatchObject({
      sub: 'buyer@acme.example',
      tenant: 'acme',
      reason: 'device',
      roles: ['tenant-admin'],
    });
    // An assertion is for its host only.
    expect(await claimsOf(byDevice, 'acme.localhost')).toBeUndefined();
  });

  it('reuses a signed assertion for the same client and host, and signs anew for another host', async () => {
    const cookie = `aplt_session=${creds.staff!.session}`;
    const first = await validate('stark.localhost', { cookie });
    const again = await validate('stark.localhost', { cookie });
    expect(again.headers['x-access-assertion']).toBe(first.headers['x-access-assertion']);
    const other = await validate('hooli.localhost', { cookie });
    expect(other.headers['x-access-assertion']).not.toBe(first.headers['x-access-assertion']);
  });

  it('lets platform staff through on a host the registry does not know, with tenant null', async () => {
    const res = await validate('nobody.localhost', { cookie: `aplt_session=${creds.staff!.session}` });
    expect(res.statusCode).toBe(200);
    expect(await claimsOf(res, 'nobody.localhost')).toMatchObject({ tenant: null, reason: 'session' });
  });

  it('never signs a denial', async () => {
    const res = await validate('acme.localhost');
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-access-assertion']).toBeUndefined();
  });

  it("passes a tenant's user on that tenant's hosts only, by session and by device token", async () => {
    const { session, device } = creds.acme!;
    for (const cookie of [`aplt_session=${session}`, `aplt_device=${device}`]) {
      expect((await validate('acme.localhost', { cookie })).statusCode).toBe(200);
      expect((await validate('www.acme.example', { cookie })).statusCode).toBe(200);
      for (const host of ['hooli.localhost', 'stark.localhost', 'STARK.localhost:8080', 'nobody.localhost']) {
        const refused = await validate(host, { cookie });
        expect(refused.statusCode, `${cookie.split('=')[0]} on ${host}`).toBe(401);
        expect(refused.json()).toMatchObject({ type: 'unauthorized', login_url: expect.any(String) });
        expect(refused.headers['x-access-assertion']).toBeUndefined();
      }
    }
    // The usual negotiation: a browser gets the denied page.
    const page = await validate('hooli.localhost', {
      cookie: `aplt_session=${session}`,
      accept: 'text/html',
    });
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toContain('text/html');
    expect((await app.inject({ url: '/metrics' })).body).toMatch(
      /access_decisions_total\{decision="deny",reason="wrong_tenant"\} [1-9]/,
    );
  });

  it("passes a tenant's user with a platform role on every tenant's hosts", async () => {
    const cookie = `aplt_session=${creds.acmeOps!.session}`;
    for (const host of ['acme.localhost', 'hooli.localhost', 'stark.localhost'])
      expect((await validate(host, { cookie })).statusCode, host).toBe(200);
  });

  it('a second host added to the tenant in the registry is accepted without a restart', async () => {
    const cookie = `aplt_session=${creds.acme!.session}`;
    expect((await validate('new.acme.example', { cookie })).statusCode).toBe(401);
    const acme = (await fleet.registry.get('acme'))!;
    await fleet.registry.add({ ...acme, hosts: [...acme.hosts, 'new.acme.example'] });
    await expect
      .poll(async () => (await validate('new.acme.example', { cookie })).statusCode, { timeout: 10_000 })
      .toBe(200);
  });

  it('a hand-over child session is valid on the host it was made for only, even for platform staff', async () => {
    const ticket = await issueLoginTicket(app.accessDb!, {
      sessionToken: creds.staff!.session,
      returnUrl: 'http://acme.localhost:8080/app',
      trustDevice: false,
    });
    const redeemed = await validate('acme.localhost:8080', {
      'x-forwarded-uri': `/_access/callback?ticket=${ticket}`,
    });
    expect(redeemed.statusCode).toBe(302);
    const child = cookiesOf({ headers: redeemed.headers } as never).aplt_session!;
    expect(child).toBeTruthy();
    const cookie = `aplt_session=${child}`;
    const onAcme = await validate('acme.localhost', { cookie });
    expect(onAcme.statusCode).toBe(200);
    expect(await claimsOf(onAcme, 'acme.localhost')).toMatchObject({ sub: 'ops@aplt.example' });
    for (const host of ['hooli.localhost', 'www.acme.example', 'access.localhost']) {
      const refused = await validate(host, { cookie });
      expect(refused.statusCode, host).toBe(401);
    }
    // Nor is it a login on the access host itself.
    const me = await app.inject({ url: '/api/auth/me', headers: { host: 'access.localhost', cookie } });
    expect(me.statusCode).toBe(401);
    const parent = await app.inject({
      url: '/api/auth/me',
      headers: { host: 'access.localhost', cookie: `aplt_session=${creds.staff!.session}` },
    });
    expect(parent.statusCode).toBe(200);
  });

  it('answers the raw fast path on a real socket with the same assertion', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/validate`;
    const res = await fetch(url, {
      headers: {
        'x-forwarded-method': 'GET',
        'x-forwarded-host': 'stark.localhost',
        'x-forwarded-uri': '/',
      },
    });
    expect(res.status).toBe(200);
    expect(
      await verifier.verify(res.headers.get('x-access-assertion') ?? '', 'stark.localhost'),
    ).toMatchObject({ sub: 'whitelist', tenant: 'stark', reason: 'whitelist' });
  });
});
