import { type ApltDatabase, sql } from '@aplt/db';
import { staticFeatureSource } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { storeCacheChannel } from '../src/store/store-cache-events';
import { adminToken } from './helpers';

/**
 * The catalog announces a tenant's catalog as changed after every successful write that names
 * the tenant, before the answer leaves (announceWrites); the other replicas drop that tenant's
 * cached store pages on the message (deploy/test/replicas-shared-state.e2e.test.ts).
 */
describe('store cache announcements of catalog writes', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let listener: Redis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let techniqueId = 0;
  const heard: string[] = [];

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'master', kind: 'master' }]);
    redis = await createTestRedis();
    const masterDb = fleet.databases.aplt<ApltDatabase>((await fleet.registry.get('master'))!);
    await sql`INSERT INTO aplt_suppliers (code, name) VALUES ('01', 'Midocean')`.execute(masterDb);
    techniqueId = (
      await sql<{ id: number }>`INSERT INTO aplt_techniques (code, supplier_code, name_nl, max_colours)
        VALUES ('01-TAMPO', '01', 'Tampondruk', 4) RETURNING id`.execute(masterDb)
    ).rows[0]!.id;
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource({}), start: async () => {}, close: async () => {} },
      },
      loadConfig({
        ...fleet.env,
        ...testSecrets(),
        LOG_LEVEL: 'silent',
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
      }),
    );
    await app.ready();
    listener = new Redis(redis.url);
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(storeCacheChannel(redis.prefix));
  });
  afterAll(async () => {
    listener?.disconnect();
    await app?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  const call = async (method: 'GET' | 'POST', url: string, body?: object) =>
    app.inject({
      method,
      url,
      headers: { ...viaProxy('master.localhost'), authorization: `Bearer ${await adminToken('master')}` },
      ...(body ? { payload: body } : {}),
    });

  it('announces a successful write, and neither a read nor a refused write', async () => {
    const url = `/admin/aplt/technique-pricing/${techniqueId}/tiers`;
    expect((await call('GET', `/admin/aplt/technique-pricing/${techniqueId}`)).statusCode).toBe(200);
    const refused = await call('POST', url, { min_quantity: -1, price_per_unit: 'abc' });
    expect(refused.statusCode).toBe(400);
    const added = await call('POST', url, { min_quantity: 100, price_per_unit: '0.45' });
    expect(added.statusCode, added.body).toBe(201);
    // Redis delivers in publish order: once this sentinel is heard, so is every announcement
    // made before it.
    await redis.redis.publish(storeCacheChannel(redis.prefix), 'sentinel');
    const deadline = Date.now() + 2000;
    while (!heard.includes('sentinel') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(['master', 'sentinel']);
  });
});
