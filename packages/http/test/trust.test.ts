import { generateSecrets } from '@aplt/config';
import { staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet } from '@aplt/db/testing';
import { testSecrets, viaProxy } from '../testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ASSERTION_HEADER, AssertionSigner, createApp, safeEqual } from '../src';

/** The tenant backend's trust boundary as createApp builds it for every service. */
describe('trust boundary of a tenant backend', () => {
  let fleet: TestFleet;
  const secrets = testSecrets();
  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
  });
  afterAll(() => fleet?.cleanup());

  async function build() {
    const app = await createApp({
      name: 'trust-test',
      logLevel: 'silent',
      registry: fleet.registry,
      licenses: staticFeatureSource({ acme: ['quotations'], globex: ['orders'] }),
      jwtSecret: secrets.JWT_SECRET,
      assertionPublicKey: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
      serviceToken: secrets.SERVICE_TOKEN,
    });
    app.get('/admin/aplt/quotations', { config: { feature: 'quotations' } }, async (request) => ({
      tenant: request.tenant.id,
      via: request.access?.reason,
    }));
    app.get('/store/things', { config: { feature: null, featureReason: 'public test route' } }, async () => ({
      ok: true,
    }));
    app.post(
      '/admin/echo',
      {
        config: { feature: null, featureReason: 'test' },
        schema: { body: z.object({ name: z.string(), tags: z.array(z.string()).optional() }).passthrough() },
      },
      async (request) => request.body,
    );
    app.post('/internal/do', { config: { tenant: false, serviceToken: true } }, async () => ({ done: true }));
    await app.ready();
    return app;
  }

  it('refuses a tenant route without an assertion, with a forged one, or one for another host', async () => {
    const app = await build();
    const plain = await app.inject({ url: '/admin/aplt/quotations', headers: { host: 'acme.localhost' } });
    expect(plain.statusCode).toBe(401);
    expect(plain.json()).toEqual({
      type: 'unauthorized',
      message: 'This request did not pass the access service',
    });
    // Signed with a key that is not the access service's.
    const forger = new AssertionSigner(generateSecrets().ACCESS_ASSERTION_PRIVATE_KEY);
    const forged = forger.sign({
      sub: 'x',
      host: 'acme.localhost',
      tenant: 'acme',
      reason: 'session',
      roles: [],
    });
    expect(
      (
        await app.inject({
          url: '/admin/aplt/quotations',
          headers: { host: 'acme.localhost', [ASSERTION_HEADER]: forged },
        })
      ).statusCode,
    ).toBe(401);
    // A real assertion made for globex does not open acme.
    const other = viaProxy('globex.localhost')[ASSERTION_HEADER]!;
    expect(
      (
        await app.inject({
          url: '/admin/aplt/quotations',
          headers: { host: 'acme.localhost', [ASSERTION_HEADER]: other },
        })
      ).statusCode,
    ).toBe(401);
    // An expired one (signed 61 s ago) neither.
    const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY);
    const old = signer.sign(
      { sub: 'whitelist', host: 'acme.localhost', tenant: 'acme', reason: 'whitelist', roles: [] },
      Date.now() - 61_000,
    );
    expect(
      (
        await app.inject({
          url: '/admin/aplt/quotations',
          headers: { host: 'acme.localhost', [ASSERTION_HEADER]: old },
        })
      ).statusCode,
    ).toBe(401);
    const ok = await app.inject({ url: '/admin/aplt/quotations', headers: viaProxy('acme.localhost') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ tenant: 'acme', via: 'whitelist' });
    // Respelling the host changes nothing: the assertion is for the normalised host.
    const upper = await app.inject({
      url: '/admin/aplt/quotations',
      headers: { ...viaProxy('acme.localhost'), host: 'ACME.localhost.:8080' },
    });
    expect(upper.statusCode).toBe(200);
    // Health stays open for the proxy's and the runner's checks.
    expect((await app.inject({ url: '/healthz', headers: { host: 'acme.localhost' } })).statusCode).toBe(200);
  });

  it("a public shop host's visitor assertion opens store routes only", async () => {
    const app = await build();
    const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY);
    const headers = {
      host: 'acme.localhost',
      [ASSERTION_HEADER]: signer.sign({
        sub: 'visitor',
        host: 'acme.localhost',
        tenant: 'acme',
        reason: 'shop',
        roles: [],
      }),
    };
    expect((await app.inject({ url: '/store/things', headers })).statusCode).toBe(200);
    for (const url of ['/admin/aplt/quotations', '/admin/aplt/%71uotations']) {
      const refused = await app.inject({ url, headers });
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toMatchObject({ type: 'unauthorized' });
    }
    const echo = await app.inject({ method: 'POST', url: '/admin/echo', headers, payload: { name: 'x' } });
    expect(echo.statusCode).toBe(401);
  });

  it('guards by the matched route, whatever spelling of the path reached it', async () => {
    const app = await build();
    for (const url of ['/admin/aplt/quotations', '/admin/aplt/%71uotations', '/admin/aplt/quotation%73']) {
      const res = await app.inject({ url, headers: viaProxy('globex.localhost') });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature: 'quotations' });
      expect((await app.inject({ url, headers: viaProxy('acme.localhost') })).statusCode, url).toBe(200);
    }
  });

  it('opens internal routes only to the service token, compared in constant time', async () => {
    const app = await build();
    const call = (authorization?: string) =>
      app.inject({
        method: 'POST',
        url: '/internal/do',
        headers: { host: '127.0.0.1', ...(authorization ? { authorization } : {}) },
      });
    expect((await call()).statusCode).toBe(401);
    expect((await call('Bearer wrong')).statusCode).toBe(401);
    expect((await call(`Bearer ${secrets.SERVICE_TOKEN}x`)).statusCode).toBe(401);
    expect((await call('Bearer ünïcödé-token')).statusCode).toBe(401);
    // An identity assertion is no substitute for the service token.
    const viaAssertion = await app.inject({
      method: 'POST',
      url: '/internal/do',
      headers: viaProxy('acme.localhost'),
    });
    expect(viaAssertion.statusCode).toBe(401);
    const ok = await call(`Bearer ${secrets.SERVICE_TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ done: true });
  });

  it('answers 400 naming the field for a NUL byte or a lone surrogate anywhere in the input', async () => {
    const app = await build();
    const q = await app.inject({ url: '/store/things?q=%00', headers: viaProxy('acme.localhost') });
    expect(q.statusCode).toBe(400);
    expect(q.json()).toMatchObject({ type: 'invalid_data', issues: [{ path: 'query.q' }] });
    const post = (payload: string) =>
      app.inject({
        method: 'POST',
        url: '/admin/echo',
        headers: { ...viaProxy('acme.localhost'), 'content-type': 'application/json' },
        payload,
      });
    const nul = await post('{"name":"a\\u0000b"}');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().issues).toEqual([{ path: 'body.name', message: expect.any(String) }]);
    const lone = await post('{"name":"ok","tags":["x","\\ud800"]}');
    expect(lone.statusCode).toBe(400);
    expect(lone.json().issues[0].path).toBe('body.tags.1');
    const key = await post('{"name":"ok","\\udc00":1}');
    expect(key.statusCode).toBe(400);
    // A proper pair (an emoji) is fine.
    const pair = await post('{"name":"\\ud83d\\ude00"}');
    expect(pair.statusCode).toBe(200);
    expect(pair.json()).toEqual({ name: '😀' });
    // Deep nesting, huge numbers and wrong types are 4xx, never 5xx.
    const deep = await post(`{"name":"x","deep":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toContain('deeper');
    // Brackets inside strings do not count.
    expect((await post(`{"name":"${'['.repeat(500)}"}`)).statusCode).toBe(200);
    expect((await post('{"name":1e309}')).statusCode).toBe(400);
    expect((await post('[1,2]')).statusCode).toBe(400);
  });

  it('refuses to start when an admin or store route declares no feature', async () => {
    for (const config of [{}, { feature: null }, { feature: 'not_a_feature' }]) {
      const app = await createApp({
        name: 'undeclared',
        logLevel: 'silent',
        registry: fleet.registry,
        licenses: staticFeatureSource({}),
        assertionPublicKey: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
        docs: false,
      });
      expect(() => app.get('/admin/anything', { config: config as never }, async () => ({}))).toThrow(
        /feature/,
      );
      await app.close();
    }
  });

  it('shows /docs to the machine itself on the service port, not through the proxy', async () => {
    const app = await build();
    const direct = await app.inject({ url: '/docs/json', remoteAddress: '127.0.0.1' });
    expect(direct.statusCode).toBe(200);
    expect(direct.json()).toHaveProperty('openapi');
    const proxied = await app.inject({
      url: '/docs/json',
      remoteAddress: '127.0.0.1',
      headers: { ...viaProxy('acme.localhost'), 'x-forwarded-for': '127.0.0.2' },
    });
    expect(proxied.statusCode).toBe(404);
    const otherPeer = await app.inject({ url: '/docs/json', remoteAddress: '127.0.0.7' });
    expect(otherPeer.statusCode).toBe(404);
    const operator = await app.inject({
      url: '/docs/json',
      remoteAddress: '127.0.0.1',
      headers: {
        ...viaProxy('acme.localhost', {
          sub: 'ops@aplt.localhost',
          reason: 'session',
          roles: ['access-admin'],
        }),
        'x-forwarded-for': '127.0.0.2',
      },
    });
    expect(operator.statusCode).toBe(200);
  });
});

describe('safeEqual', () => {
  it('compares secrets of any length and alphabet without throwing', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('ä', 'a')).toBe(false);
    expect(safeEqual(undefined, 'a')).toBe(false);
    expect(safeEqual('', '')).toBe(false);
  });
});

describe('route inventory in the OpenAPI document', () => {
  it('tags every admin and store route with its declared feature', async () => {
    const fleet = await createTestFleet([{ id: 'acme' }]);
    try {
      const app = await createApp({
        name: 'inventory',
        logLevel: 'silent',
        registry: fleet.registry,
        licenses: staticFeatureSource({}),
        assertionPublicKey: testSecrets().ACCESS_ASSERTION_PUBLIC_KEY,
      });
      app.get('/admin/a', { config: { feature: 'orders' } }, async () => ({}));
      app.get('/store/b', { config: { feature: null, featureReason: 'x' } }, async () => ({}));
      app.get('/api/c', async () => ({}));
      const doc = (await app.inject({ url: '/docs/json', remoteAddress: '127.0.0.1' })).json();
      expect(doc.paths['/admin/a'].get.tags).toEqual(['feature:orders']);
      expect(doc.paths['/store/b'].get.tags).toEqual(['feature:none']);
      expect(doc.paths['/api/c'].get.tags).toBeUndefined();
      await app.close();
    } finally {
      await fleet.cleanup();
    }
  });
});
