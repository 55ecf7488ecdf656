import { generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, AssertionSigner, signActorToken, tenantJwtSecret } from '@aplt/http';
import { type FeatureKey, featureKeys, staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

type Method = 'GET' | 'POST' | 'PUT';

/** Every route of the gatekeeper: the visitor's side and the admins' review are one feature. */
const routes: Array<[Method, string]> = [
  ['GET', '/store/access-check'],
  ['POST', '/store/access-request'],
  ['GET', '/admin/aplt/access-requests'],
  ['PUT', '/admin/aplt/access-requests/1'],
];

describe('gatekeeper: the access_requests feature, and only what passed the proxy gets in', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  const host = 'acme.localhost';
  // acme's licence, changed by each test; no entry means every feature.
  const licensed: Record<string, FeatureKey[]> = {};

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource(licensed), start: async () => {}, close: async () => {} },
      },
      loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent' }),
    );
    token = await signActorToken(
      tenantJwtSecret(testSecrets().JWT_SECRET, 'acme'),
      { actor_id: 'user_gk', actor_type: 'user', auth_identity_id: 'authid_gk', app_metadata: {} },
      600,
    );
  });
  beforeEach(() => {
    delete licensed.acme;
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  const call = (method: Method, url: string, headers: Record<string, string> = viaProxy(host)) =>
    app.inject({ method, url, headers: { ...headers, authorization: `Bearer ${token}` } });

  it('answers 403 Feature not available on every route without access_requests, and only then', async () => {
    for (const [method, url] of routes) {
      licensed.acme = featureKeys.filter((f) => f !== 'access_requests');
      const refused = await call(method, url);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({
        type: 'not_allowed',
        message: 'Feature not available',
        feature: 'access_requests',
      });
      licensed.acme = ['access_requests'];
      const passed = await call(method, url);
      expect(passed.statusCode, `${method} ${url}`).not.toBe(403);
      expect(passed.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
  });

  it('guards the route, not the spelling: percent-encoded paths are refused, other cases match no route', async () => {
    licensed.acme = [];
    for (const url of [
      '/store/%61ccess-check',
      '/admin/aplt/%61ccess-requests',
      '/admin/aplt/access-request%73?status=all',
    ]) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature: 'access_requests' });
    }
    for (const url of ['/store/Access-Check', '/ADMIN/aplt/access-requests', '/store/%2561ccess-check']) {
      expect((await call('GET', url)).statusCode, url).toBe(404);
    }
  });

  it('answers 401 without a valid assertion for this host, before the license is looked at', async () => {
    licensed.acme = [];
    const claims = { sub: 'whitelist', host, tenant: 'acme', reason: 'whitelist' as const, roles: [] };
    const refusals: Record<string, Record<string, string>> = {
      none: { host },
      garbage: { host, [ASSERTION_HEADER]: 'not-a-token' },
      forged: {
        host,
        [ASSERTION_HEADER]: new AssertionSigner(generateSecrets().ACCESS_ASSERTION_PRIVATE_KEY).sign(claims),
      },
      expired: {
        host,
        [ASSERTION_HEADER]: new AssertionSigner(testSecrets().ACCESS_ASSERTION_PRIVATE_KEY).sign(
          claims,
          Date.now() - 61_000,
        ),
      },
      'another host': { host, [ASSERTION_HEADER]: viaProxy('globex.localhost')[ASSERTION_HEADER]! },
    };
    for (const [why, headers] of Object.entries(refusals)) {
      for (const [method, url] of routes) {
        const res = await call(method, url, headers);
        expect(res.statusCode, `${why}: ${method} ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ type: 'unauthorized' });
      }
    }
    delete licensed.acme;
    expect((await call('GET', '/store/access-check')).statusCode).toBe(200);
  });

  it('answers its health checks without an assertion', async () => {
    for (const url of ['/healthz', '/readyz']) {
      expect((await app.inject({ url, headers: { host } })).statusCode, url).toBe(200);
    }
  });
});
