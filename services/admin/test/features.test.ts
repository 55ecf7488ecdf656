import { generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import { type FeatureKey, staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

describe('admin feature endpoints and sidebar filtering', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  // acme has only two sales features and one system feature; globex is absent: all features.
  const acmeFeatures: FeatureKey[] = ['quotations', 'invoices', 'parameters', 'dunning'];
  const licensed: Record<string, FeatureKey[]> = { acme: acmeFeatures };

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    const licenses = { ...staticFeatureSource(licensed), start: async () => {}, close: async () => {} };
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses },
      loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent' }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('GET /admin/features lists the enabled features, their sidebar items and the source', async () => {
    const res = await app.inject({ url: '/admin/features', headers: viaProxy('acme.localhost') });
    expect(res.json()).toMatchObject({
      tenant_id: 'acme',
      features: ['quotations', 'invoices', 'parameters', 'dunning'],
      sidebar_items: ['01-quotations', '03-invoices', '30-parameters'],
      status: { source: 'env', all_features_mode: false },
    });
  });

  it('GET /admin/features answers whatever is licensed, also nothing (the sidebar needs it)', async () => {
    licensed.acme = [];
    try {
      const res = await app.inject({ url: '/admin/%66eatures', headers: viaProxy('acme.localhost') });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ tenant_id: 'acme', features: [], sidebar_items: [] });
    } finally {
      licensed.acme = acmeFeatures;
    }
  });

  it('GET /api/store/features is public and has exactly {tenant_id, features}', async () => {
    const res = await app.inject({ url: '/api/store/features', headers: viaProxy('globex.localhost') });
    expect(Object.keys(res.json()).sort()).toEqual(['features', 'tenant_id']);
    expect(res.json().features).toHaveLength(31);
  });

  it('the /app sidebar shows only licensed items and hides headers without visible children', async () => {
    const html = (await app.inject({ url: '/app', headers: viaProxy('acme.localhost') })).body;
    expect(html).toContain('data-item="01-quotations"');
    expect(html).toContain('data-item="30-parameters"');
    expect(html).not.toContain('data-item="02-aplt-orders"');
    expect(html).toContain('data-section="sales"');
    expect(html).not.toContain('data-section="products"');
    expect(html).not.toContain('data-section="addons"');
    const all = (await app.inject({ url: '/app', headers: viaProxy('globex.localhost') })).body;
    expect(all).toContain('data-section="addons"');
    expect(all.match(/data-item=/g)).toHaveLength(23);
  });

  it('names who passed from the signed assertion, never from headers a client could send', async () => {
    const ann = viaProxy('acme.localhost', {
      sub: 'ann@acme.test',
      reason: 'session',
      roles: ['license-admin', 'access-admin'],
    });
    const spoof = {
      'x-auth-user': 'spoofed@example.com',
      'x-auth-roles': 'access-admin',
      'x-auth-via': 'session',
    };
    const res = await app.inject({
      url: '/api/identity',
      headers: { ...ann, ...spoof, 'x-auth-user': 'x@y.z' },
    });
    expect(res.json()).toEqual({
      user: 'ann@acme.test',
      roles: 'license-admin,access-admin',
      via: 'session',
    });
    const machine = await app.inject({
      url: '/api/identity',
      headers: { ...viaProxy('acme.localhost'), ...spoof },
    });
    expect(machine.json()).toEqual({ user: null, roles: null, via: 'whitelist' });
    const shell = (await app.inject({ url: '/app', headers: { ...ann, ...spoof } })).body;
    expect(shell).toContain('Signed in as ann@acme.test');
  });

  it('answers 401 to every tenant route without a valid assertion for its host, but health answers', async () => {
    const host = 'acme.localhost';
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
      for (const url of ['/', '/app', '/admin/features', '/api/store/features', '/api/identity']) {
        const res = await app.inject({ url, headers });
        expect(res.statusCode, `${why}: ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ type: 'unauthorized' });
      }
    }
    for (const url of ['/healthz', '/readyz']) {
      expect((await app.inject({ url, headers: { host } })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ url: '/', headers: viaProxy(host) })).json()).toMatchObject({
      service: 'admin',
      tenant: { id: 'acme' },
    });
  });
});
