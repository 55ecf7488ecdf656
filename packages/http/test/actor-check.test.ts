import { type CommerceDatabase, type Kysely, newId, revokeTokensBefore, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet } from '@aplt/db/testing';
import { freePort } from '@aplt/proxy';
import { testSecrets, viaProxy } from '../testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootTenantService,
  commerceActorCheck,
  createApp,
  requireActor,
  signActorToken,
  tenantJwtSecret,
  tokenIssuedAt,
  useActorCheck,
} from '../src';

const secrets = testSecrets();
const key = tenantJwtSecret(secrets.JWT_SECRET, 'acme');

/** An actor row and the auth identity linking to it, as Medusa keeps them. */
async function seedActor(db: Kysely<CommerceDatabase>, type: 'user' | 'customer') {
  const actorId = newId(type === 'user' ? 'user' : 'cus');
  const authIdentityId = newId('authid');
  await db
    .insertInto(type)
    .values({ id: actorId, email: `${actorId}@x.localhost` })
    .execute();
  await db
    .insertInto('auth_identity')
    .values({
      id: authIdentityId,
      app_metadata: sql`${JSON.stringify({ [`${type}_id`]: actorId })}::jsonb`,
    })
    .execute();
  return { actorId, authIdentityId };
}

const tokenFor = (
  type: 'user' | 'customer',
  a: { actorId: string; authIdentityId: string },
  issuedAtMs?: number,
) =>
  signActorToken(
    key,
    {
      actor_id: a.actorId,
      actor_type: type,
      auth_identity_id: a.authIdentityId,
      app_metadata: { [`${type}_id`]: a.actorId },
    },
    600,
    issuedAtMs,
  );

/** requireActor with the actor check bootTenantService installs in every tenant backend. */
describe('requireActor with the commerce actor check', () => {
  let fleet: TestFleet;
  let db: Kysely<CommerceDatabase>;
  let app: Awaited<ReturnType<typeof createApp>>;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    db = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('acme'))!);
    app = await createApp({
      name: 'actor-check-test',
      logLevel: 'silent',
      registry: fleet.registry,
      licenses: allFeaturesClient,
      jwtSecret: secrets.JWT_SECRET,
      assertionPublicKey: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
    });
    app.get(
      '/admin/me',
      { config: { feature: null, featureReason: 'test' }, preHandler: requireActor('user') },
      async (request) => ({ actor: request.actor!.actorId }),
    );
    app.get(
      '/store/me',
      { config: { feature: null, featureReason: 'test' }, preHandler: requireActor('customer') },
      async (request) => ({ actor: request.actor!.actorId }),
    );
    useActorCheck(app, commerceActorCheck(fleet.databases));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  const get = (url: string, headers: Record<string, string>) =>
    app.inject({ url, headers: { ...viaProxy('acme.localhost'), ...headers } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('accepts a token of an existing user, by bearer and by cookie session', async () => {
    const admin = await seedActor(db, 'user');
    const token = await tokenFor('user', admin);
    expect((await get('/admin/me', bearer(token))).json()).toEqual({ actor: admin.actorId });
    expect((await get('/admin/me', { cookie: `connect.sid=${token}` })).statusCode).toBe(200);
  });

  it('refuses the token of a soft-deleted user, a hard-deleted customer and a deleted identity', async () => {
    const admin = await seedActor(db, 'user');
    const token = await tokenFor('user', admin);
    expect((await get('/admin/me', bearer(token))).statusCode).toBe(200);
    await db
      .updateTable('user')
      .set({ deleted_at: sql`now()` })
      .where('id', '=', admin.actorId)
      .execute();
    const refused = await get('/admin/me', bearer(token));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ type: 'unauthorized', message: 'Unauthorized' });
    expect((await get('/admin/me', { cookie: `connect.sid=${token}` })).statusCode).toBe(401);

    const customer = await seedActor(db, 'customer');
    const customerToken = await tokenFor('customer', customer);
    expect((await get('/store/me', { cookie: `_commerce_jwt=${customerToken}` })).statusCode).toBe(200);
    await db.deleteFrom('customer').where('id', '=', customer.actorId).execute();
    expect((await get('/store/me', { cookie: `_commerce_jwt=${customerToken}` })).statusCode).toBe(401);

    const other = await seedActor(db, 'user');
    const otherToken = await tokenFor('user', other);
    await db
      .updateTable('auth_identity')
      .set({ deleted_at: sql`now()` })
      .where('id', '=', other.authIdentityId)
      .execute();
    expect((await get('/admin/me', bearer(otherToken))).statusCode).toBe(401);
  });

  it('refuses a token whose identity links to another actor, or that names no identity', async () => {
    const a = await seedActor(db, 'user');
    const b = await seedActor(db, 'user');
    // A validly signed token pairing b's user with a's identity.
    const crossed = await tokenFor('user', { actorId: b.actorId, authIdentityId: a.authIdentityId });
    expect((await get('/admin/me', bearer(crossed))).statusCode).toBe(401);
    const bare = await signActorToken(key, { actor_id: a.actorId, actor_type: 'user' }, 600);
    expect((await get('/admin/me', bearer(bare))).statusCode).toBe(401);
  });

  it('refuses tokens issued before the revocation time, to the millisecond, and accepts those after', async () => {
    const admin = await seedActor(db, 'user');
    // A revocation in the middle of a second: tokens of the same second fall on both sides.
    const second = Math.floor(Date.now() / 1000) * 1000;
    const revokedAt = second + 500;
    const before = await tokenFor('user', admin, revokedAt - 1);
    const atStartOfSecond = await tokenFor('user', admin, second);
    const at = await tokenFor('user', admin, revokedAt);
    const after = await tokenFor('user', admin, revokedAt + 1);
    // Tokens made before iat_ms existed count from the start of their iat second.
    const legacy = await new SignJWT({
      actor_id: admin.actorId,
      actor_type: 'user',
      auth_identity_id: admin.authIdentityId,
      app_metadata: { user_id: admin.actorId },
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(second / 1000)
      .setExpirationTime(second / 1000 + 600)
      .sign(key);
    for (const token of [before, atStartOfSecond, at, after, legacy])
      expect((await get('/admin/me', bearer(token))).statusCode).toBe(200);

    await revokeTokensBefore(db, admin.authIdentityId, new Date(revokedAt));
    for (const token of [before, atStartOfSecond, legacy])
      expect((await get('/admin/me', bearer(token))).statusCode).toBe(401);
    for (const token of [at, after]) expect((await get('/admin/me', bearer(token))).statusCode).toBe(200);

    // The mark only moves forward: an older revocation written late revives nothing.
    await revokeTokensBefore(db, admin.authIdentityId, new Date(second));
    expect((await get('/admin/me', bearer(before))).statusCode).toBe(401);
  });

  it('reads iat_ms only when it agrees with iat', () => {
    expect(tokenIssuedAt({ iat: 1_700_000_000, iat_ms: 1_700_000_000_123 }).getTime()).toBe(
      1_700_000_000_123,
    );
    // A claim that disagrees with the signed iat, or is not an integer, falls back to iat.
    expect(tokenIssuedAt({ iat: 1_700_000_000, iat_ms: 1_700_000_005_000 }).getTime()).toBe(
      1_700_000_000_000,
    );
    expect(tokenIssuedAt({ iat: 1_700_000_000, iat_ms: '1700000000123' }).getTime()).toBe(1_700_000_000_000);
    expect(tokenIssuedAt({ iat: 1_700_000_000 }).getTime()).toBe(1_700_000_000_000);
  });

  it('leaves apps without the check as they were (services wire it through bootTenantService)', async () => {
    const plain = await createApp({
      name: 'no-check',
      logLevel: 'silent',
      registry: fleet.registry,
      jwtSecret: secrets.JWT_SECRET,
      assertionPublicKey: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
    });
    plain.get('/me', { preHandler: requireActor('user') }, async (request) => ({
      actor: request.actor!.actorId,
    }));
    try {
      expect(plain.hasDecorator('actorCheck')).toBe(false);
      const token = await tokenFor('user', { actorId: 'user_nowhere', authIdentityId: 'authid_nowhere' });
      const res = await plain.inject({
        url: '/me',
        headers: { ...viaProxy('acme.localhost'), ...bearer(token) },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it('bootTenantService wires the check into the service it starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'licenses-'));
    const saved = { ...process.env };
    Object.assign(process.env, fleet.env, {
      LICENSE_API_URL: `http://127.0.0.1:${await freePort()}`,
      LICENSE_PUSH: 'false',
      LICENSE_CACHE_DIR: dir,
      LICENSE_FETCH_TIMEOUT_MS: '200',
    });
    let booted: Awaited<ReturnType<typeof bootTenantService>> | undefined;
    try {
      booted = await bootTenantService({
        port: 0,
        host: '127.0.0.1',
        build: async (deps) => {
          const service = await createApp({
            name: 'booted',
            logLevel: 'silent',
            registry: deps.registry,
            jwtSecret: secrets.JWT_SECRET,
            assertionPublicKey: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
          });
          service.get('/me', { preHandler: requireActor('user') }, async (request) => ({
            actor: request.actor!.actorId,
          }));
          return service;
        },
      });
      const admin = await seedActor(db, 'user');
      const token = await tokenFor('user', admin);
      const ask = () =>
        booted!.inject({ url: '/me', headers: { ...viaProxy('acme.localhost'), ...bearer(token) } });
      expect((await ask()).statusCode).toBe(200);
      await db
        .updateTable('user')
        .set({ deleted_at: sql`now()` })
        .where('id', '=', admin.actorId)
        .execute();
      expect((await ask()).statusCode).toBe(401);
    } finally {
      await booted?.close();
      process.env = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
