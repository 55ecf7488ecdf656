import { AssertionVerifier } from '@aplt/http';
import { createTestFleet, testSecrets, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { isShopHost } from '../src/forward-auth/host-tenants';
import { createAccessAppForTest } from './access-app';

const VISITOR = '192.0.2.44'; // through the trusted proxy, never whitelisted

/**
 * ACCESS_SHOP_POLICY (docs/decisions.md): a registered tenant's shop host is public at forward
 * auth, with a signed `shop` assertion, so the storefront's gatekeeper can show /toegang to
 * anyone; every other host keeps the whitelist-or-login rule.
 */
describe('forward auth on shop hosts', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let protectedApp: Awaited<ReturnType<typeof createAccessAppForTest>>;
  const verifier = new AssertionVerifier(testSecrets().ACCESS_ASSERTION_PUBLIC_KEY);

  const validate = (
    host: string,
    headers: Record<string, string> = {},
    target: typeof app = app,
    uri = '/nl',
  ) =>
    target.inject({
      method: 'GET',
      url: '/api/validate',
      remoteAddress: '127.0.0.1',
      headers: {
        'x-forwarded-method': 'GET',
        'x-forwarded-host': host,
        'x-forwarded-uri': uri,
        'x-forwarded-for': VISITOR,
        accept: 'application/json',
        ...headers,
      },
    });

  beforeAll(async () => {
    fleet = await createTestFleet([
      // A shop host whose middle label names another tenant is no shop host of acme.
      { id: 'acme', hosts: ['acme.localhost', 'shop.acme.localhost', 'shop.hooli.acme.example'] },
      { id: 'hooli' },
    ]);
    app = await createAccessAppForTest(fleet.registry);
    protectedApp = await createAccessAppForTest(fleet.registry, { ACCESS_SHOP_POLICY: 'protected' });
  });
  afterAll(async () => {
    await app?.close();
    await protectedApp?.close();
    await fleet?.cleanup();
  });

  it('lets anyone reach a registered tenant shop host, with a signed visitor assertion for that host', async () => {
    for (const raw of ['shop.acme.localhost', 'SHOP.Acme.localhost.:8080']) {
      const res = await validate(raw, { accept: 'text/html' });
      expect(res.statusCode, raw).toBe(200);
      expect(res.headers['x-auth-via']).toBe('shop');
      expect(res.headers['x-auth-user']).toBe('');
      const claims = await verifier.verify(String(res.headers['x-access-assertion']), 'shop.acme.localhost');
      expect(claims).toMatchObject({
        iss: 'aplt-access',
        sub: 'visitor',
        host: 'shop.acme.localhost',
        tenant: 'acme',
        reason: 'shop',
        roles: [],
      });
      // Bound to the shop host: it is no pass for the tenant's backend host.
      expect(
        await verifier.verify(String(res.headers['x-access-assertion']), 'acme.localhost'),
      ).toBeUndefined();
    }
    // Every path of the shop host, any method: the storefront and its gatekeeper decide.
    expect(
      (await validate('shop.acme.localhost', { 'x-forwarded-method': 'POST' }, app, '/toegang')).statusCode,
    ).toBe(200);
  });

  it("keeps the tenant's backend host, unknown shop hosts and foreign shop names protected", async () => {
    for (const host of [
      'acme.localhost',
      'shop.nobody.localhost',
      'shop.hooli.localhost',
      'shop.hooli.acme.example',
    ]) {
      const res = await validate(host);
      expect(res.statusCode, host).toBe(401);
      expect(res.json()).toMatchObject({ type: 'unauthorized', ip: VISITOR });
      expect(res.headers['x-access-assertion']).toBeUndefined();
    }
    // A browser on the backend host still gets the branded denied page.
    const page = await validate('acme.localhost', { accept: 'text/html' });
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(VISITOR);
  });

  it('the shop rule matches the registry: only shop.<its own tenant>. hosts', () => {
    expect(isShopHost('shop.acme.localhost', 'acme')).toBe(true);
    expect(isShopHost('shop.acme.example.com', 'acme')).toBe(true);
    expect(isShopHost('shop.localhost', 'shop')).toBe(false);
    expect(isShopHost('shop.acme.localhost', null)).toBe(false);
    expect(isShopHost('shop.acme.localhost', 'hooli')).toBe(false);
    expect(isShopHost('shop.acmeco.localhost', 'acme')).toBe(false);
    expect(isShopHost('acme.localhost', 'acme')).toBe(false);
  });

  it('a shop host added to the registry later is public without a restart', async () => {
    expect((await validate('shop.hooli.localhost')).statusCode).toBe(401);
    const hooli = (await fleet.registry.get('hooli'))!;
    await fleet.registry.add({ ...hooli, hosts: [...hooli.hosts, 'shop.hooli.localhost'] });
    await expect
      .poll(async () => (await validate('shop.hooli.localhost')).statusCode, { timeout: 10_000 })
      .toBe(200);
  });

  it('still refuses bad input and still redeems the login hand-over on the shop host', async () => {
    const nul = await validate('shop.acme.localhost', { cookie: 'aplt_session=ab%00cd' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ type: 'invalid_data' });
    const ticket = await validate('shop.acme.localhost', {}, app, '/_access/callback?ticket=nope');
    expect(ticket.statusCode).toBe(400);
    expect(ticket.headers['x-access-assertion']).toBeUndefined();
  });

  it('with ACCESS_SHOP_POLICY=protected the shop host needs the whitelist or a login again', async () => {
    const refused = await validate('shop.acme.localhost', {}, protectedApp);
    expect(refused.statusCode).toBe(401);
    const listed = await protectedApp.inject({
      method: 'GET',
      url: '/api/validate',
      remoteAddress: '127.0.0.1',
      headers: {
        'x-forwarded-method': 'GET',
        'x-forwarded-host': 'shop.acme.localhost',
        'x-forwarded-uri': '/nl',
      },
    });
    expect(listed.statusCode).toBe(200);
    expect(
      await verifier.verify(String(listed.headers['x-access-assertion']), 'shop.acme.localhost'),
    ).toMatchObject({ reason: 'whitelist', sub: 'whitelist' });
    // A tenant user's login passes there as on any of the tenant's hosts.
    const user = await createUser(
      { db: protectedApp.accessDb! },
      { email: 'buyer@acme.example', password: 'Correct-Horse-42!', roles: [], tenantId: 'acme' },
    );
    const session = newToken();
    await insertSession(protectedApp.accessDb!, {
      id: tokenHash(session),
      userId: user.id,
      ip: VISITOR,
      userAgent: 'test',
      hours: 1,
    });
    const bySession = await validate(
      'shop.acme.localhost',
      { cookie: `aplt_session=${session}` },
      protectedApp,
    );
    expect(bySession.statusCode).toBe(200);
    expect(bySession.headers['x-auth-via']).toBe('session');
  });

  it('counts shop allows in the metrics', async () => {
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/access_decisions_total\{decision="allow",reason="shop"\} [1-9]/);
  });
});
