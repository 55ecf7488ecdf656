import { generateSecrets } from '@aplt/config';
import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import { type FeatureKey, featureKeys, staticFeatureSource } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken } from './helpers';

/** Everything but `off`: a tenant licensed for all of the catalog's features except those. */
const allBut = (...off: FeatureKey[]) => featureKeys.filter((f) => !off.includes(f));

/**
 * The catalog's trust boundary and licensing, on the app itself (inject): the identity assertion,
 * the feature each route declares, and who may write across tenants.
 */
describe('catalog route guards', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let masterDb: Kysely<ApltDatabase>;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    fleet = await createTestFleet([
      { id: 'master', kind: 'master' },
      { id: 'acme' },
      { id: 'globex' },
      { id: 'bare' },
    ]);
    redis = await createTestRedis();
    masterDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    const config = loadConfig({
      ...fleet.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
    });
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        // acme has everything but the AI add-on and the product catalog; bare has nothing;
        // master and globex (not listed) have every feature.
        licenses: {
          ...staticFeatureSource({ acme: allBut('ai_assist', 'products'), bare: [] }),
          start: async () => {},
          close: async () => {},
        },
      },
      config,
    );
    await app.ready();
    for (const id of ['master', 'acme', 'globex', 'bare']) tokens[id] = await adminToken(id);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  const call = (
    tenant: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    opts: { token?: string | null; body?: object } = {},
  ) => {
    const token = opts.token === undefined ? tokens[tenant] : opts.token;
    return app.inject({
      method,
      url,
      headers: { ...viaProxy(`${tenant}.localhost`), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(opts.body ? { payload: opts.body } : {}),
    });
  };

  it('declares a licensed feature on every admin and store route: a tenant without it gets 403 naming it', async () => {
    const table: Array<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, feature: FeatureKey]> = [
      ['GET', '/store/aplt/products', 'products'],
      ['GET', '/store/aplt/categories', 'products'],
      ['GET', '/admin/connectors/sync', 'connectors'],
      ['POST', '/admin/connectors/sync?connector=01_products', 'connectors'],
      ['GET', '/admin/connectors/sync/runs', 'connectors'],
      ['GET', '/admin/connectors/sync/runs/1', 'connectors'],
      ['GET', '/admin/connectors/commerce-sync', 'connectors'],
      ['POST', '/admin/connectors/commerce-sync', 'connectors'],
      ['GET', '/admin/connectors/commerce-sync/runs/1', 'connectors'],
      ['GET', '/admin/tenant-update', 'product_copy'],
      ['POST', '/admin/tenant-update', 'product_copy'],
      ['GET', '/admin/tenant-update/runs/1', 'product_copy'],
      ['GET', '/admin/aplt/suppliers', 'suppliers'],
      ['GET', '/admin/aplt/suppliers/1', 'suppliers'],
      ['PUT', '/admin/aplt/suppliers/1', 'suppliers'],
      ['GET', '/admin/aplt/technique-pricing', 'technique_pricing'],
      ['GET', '/admin/aplt/technique-pricing/1', 'technique_pricing'],
      ['POST', '/admin/aplt/technique-pricing/1/tiers', 'technique_pricing'],
      ['PUT', '/admin/aplt/technique-pricing/1/tiers/1', 'technique_pricing'],
      ['DELETE', '/admin/aplt/technique-pricing/1/tiers/1', 'technique_pricing'],
      ['GET', '/admin/aplt/products', 'products'],
      ['POST', '/admin/agent/product-search', 'ai_assist'],
      ['POST', '/admin/aplt/ai-generate-lines', 'ai_assist'],
      ['POST', '/admin/aplt/ai-assist', 'ai_assist'],
    ];
    for (const [method, url, feature] of table) {
      const res = await call('bare', method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), `${method} ${url}`).toEqual({
        type: 'not_allowed',
        message: 'Feature not available',
        feature,
      });
    }
    // The queue dashboard belongs to no feature: bare is refused because it is not the master.
    const queues = await call('bare', 'GET', '/admin/queues/api/queues');
    expect(queues.statusCode).toBe(403);
    expect(queues.json().message).toMatch(/master tenant/);
    const board = await call('master', 'GET', '/admin/queues/api/queues');
    expect(board.statusCode, board.body).toBe(200);
  });

  it('guards the route that was matched, whatever spelling of the path reached it', async () => {
    const search = { query: 'blauwe pen' };
    for (const url of [
      '/admin/agent/product-search',
      '/admin/agent/%70roduct-search',
      '/admin/agent/product%2Dsearch',
    ]) {
      const res = await call('acme', 'POST', url, { body: search });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature: 'ai_assist' });
      // The same spelling reaches the handler on a tenant that has the feature.
      expect((await call('globex', 'POST', url, { body: search })).statusCode, url).toBe(200);
    }
    for (const url of [
      '/store/aplt/products',
      '/store/aplt/%70roducts',
      '/store/aplt/%70%72oducts?lang=en',
    ]) {
      const res = await call('acme', 'GET', url, { token: null });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature: 'products' });
      expect((await call('globex', 'GET', url, { token: null })).statusCode, url).toBe(200);
    }
    const assist = await call('acme', 'POST', '/admin/aplt/%61i-assist', { body: { question: 'omzet?' } });
    expect(assist.statusCode).toBe(403);
    const categories = await call('acme', 'GET', '/store/aplt/c%61tegories', { token: null });
    expect(categories.json()).toMatchObject({ feature: 'products' });
  });

  it('answers 401 to a request without the access service’s assertion, with a forged one, or one for another host', async () => {
    const auth = { authorization: `Bearer ${tokens.globex}` };
    const forged = new AssertionSigner(generateSecrets().ACCESS_ASSERTION_PRIVATE_KEY).sign({
      sub: 'whitelist',
      host: 'globex.localhost',
      tenant: 'globex',
      reason: 'whitelist',
      roles: [],
    });
    const variants: Array<[string, Record<string, string>]> = [
      ['none', { host: 'globex.localhost' }],
      ['forged', { host: 'globex.localhost', [ASSERTION_HEADER]: forged }],
      [
        'other host',
        { host: 'globex.localhost', [ASSERTION_HEADER]: viaProxy('acme.localhost')[ASSERTION_HEADER]! },
      ],
      ['garbage', { host: 'globex.localhost', [ASSERTION_HEADER]: 'not.a.jwt' }],
    ];
    for (const [what, headers] of variants) {
      for (const url of ['/store/aplt/products', '/admin/connectors/sync', '/admin/queues/api/queues']) {
        const res = await app.inject({ url, headers: { ...headers, ...auth } });
        expect(res.statusCode, `${what} ${url}`).toBe(401);
        expect(res.json(), `${what} ${url}`).toEqual({
          type: 'unauthorized',
          message: 'This request did not pass the access service',
        });
      }
    }
    // The same request with the proxy's assertion goes through; health needs none.
    expect((await call('globex', 'GET', '/admin/connectors/sync')).statusCode).toBe(200);
    expect((await app.inject({ url: '/healthz', headers: { host: 'globex.localhost' } })).statusCode).toBe(
      200,
    );
  });

  it('lets only an admin of the master start a connector import or a tenant update (issue 13, item 11)', async () => {
    const runs = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_connector_sync`.execute(masterDb))
        .rows[0]!.n;
    const before = await runs();
    const refused = [
      ['POST', '/admin/connectors/sync?connector=01_products', undefined],
      ['POST', '/admin/tenant-update', { tenant_ids: ['globex'] }],
      ['POST', '/admin/tenant-update', { tenant_ids: ['acme'] }],
      ['POST', '/admin/tenant-update', { tenant_ids: ['master', 'globex', 'bare'] }],
      ['GET', '/admin/tenant-update', undefined],
    ] as const;
    for (const [method, url, body] of refused) {
      const res = await call('acme', method, url, body ? { body } : {});
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(403);
      expect(res.json().type).toBe('not_allowed');
      expect(res.json().message).toMatch(/admins of the master tenant only/);
      // Anonymous callers learn nothing either.
      expect((await call('acme', method, url, { token: null, ...(body ? { body } : {}) })).statusCode).toBe(
        401,
      );
    }
    // acme's token on the master's host is no master token.
    expect(
      (
        await call('master', 'POST', '/admin/tenant-update', {
          token: tokens.acme,
          body: { tenant_ids: ['globex'] },
        })
      ).statusCode,
    ).toBe(401);
    expect(await runs()).toBe(before);

    // Reading stays open to every tenant's admin (the panel shows connectors read-only), and a
    // tenant's own commerce sync is its own business.
    expect((await call('acme', 'GET', '/admin/connectors/sync')).statusCode).toBe(200);
    expect((await call('acme', 'GET', '/admin/connectors/commerce-sync')).statusCode).toBe(200);
    const sync = await call('acme', 'POST', '/admin/connectors/commerce-sync');
    expect(sync.statusCode, sync.body).toBe(202);

    const list = await call('master', 'GET', '/admin/tenant-update');
    expect(list.statusCode).toBe(200);
    expect(list.json().tenants.map((t: { id: string }) => t.id)).toEqual(['acme', 'bare', 'globex']);
    const update = await call('master', 'POST', '/admin/tenant-update', {
      body: { tenant_ids: ['acme', 'globex'] },
    });
    expect(update.statusCode, update.body).toBe(202);
    expect(update.json()).toMatchObject({ state: 'queued', tenant_ids: ['acme', 'globex'] });
    const start = await call('master', 'POST', '/admin/connectors/sync?connector=01_products');
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json()).toMatchObject({ connector: '01_products', status: 'queued' });
    expect(await runs()).toBe(before + 2);
  });
});
