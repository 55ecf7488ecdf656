import type { AddressInfo } from 'node:net';
import { generateSecrets } from '@aplt/config';
import { sql } from '@aplt/db';
import {
  ASSERTION_HEADER,
  AssertionSigner,
  commerceActorCheck,
  signActorToken,
  tenantJwtSecret,
  useActorCheck,
} from '@aplt/http';
import { type FeatureKey, staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openSse } from './sse-client';

describe('admin feature endpoints', () => {
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
      // A web build that is not there: these tests are not about the panel's files.
      loadConfig({
        ...testSecrets(),
        LOG_LEVEL: 'silent',
        ADMIN_WEB_DIST: '/nonexistent',
        FEATURE_EVENTS_CHECK_MS: '50',
      }),
    );
    // As bootTenantService does: tokens of deleted users are refused.
    useActorCheck(app, commerceActorCheck(fleet.databases));
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

  it('GET /admin/features/events streams the features at once and again on every change', async () => {
    const refused = await app.inject({
      url: '/admin/features/events',
      headers: { ...viaProxy('acme.localhost'), accept: 'application/json' },
    });
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toMatchObject({ type: 'invalid_data' });

    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const open = (host: string) =>
      openSse(port, '/admin/features/events', { ...viaProxy(host), accept: 'text/event-stream' });
    const acme = await open('acme.localhost');
    const globex = await open('globex.localhost');
    try {
      expect(acme.status).toBe(200);
      expect(acme.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(acme.headers['cache-control']).toBe('no-store');
      const first = await acme.next();
      expect(first.event).toBe('features');
      expect(JSON.parse(first.data)).toMatchObject({
        tenant_id: 'acme',
        sidebar_items: ['01-quotations', '03-invoices', '30-parameters'],
      });
      expect(JSON.parse((await globex.next()).data).sidebar_items).toHaveLength(23);

      // The license changes: acme's listener hears it, globex's (unchanged) hears nothing.
      licensed.acme = ['invoices', 'parameters', 'dunning'];
      const changed = JSON.parse((await acme.next()).data);
      expect(changed.sidebar_items).toEqual(['03-invoices', '30-parameters']);
      expect(changed.features).toEqual(['invoices', 'parameters', 'dunning']);
      await expect(globex.next(300)).rejects.toThrow(/no server-sent event/);

      // A stream without a valid assertion never opens.
      const forged = await openSse(port, '/admin/features/events', {
        host: 'acme.localhost',
        accept: 'text/event-stream',
      });
      expect(forged.status).toBe(401);
      forged.close();
    } finally {
      licensed.acme = acmeFeatures;
      globex.close();
    }
    // Closing the app ends the streams still open (a stream never ends by itself).
    await app.close();
    await acme.ended;
  });
});

describe('GET /admin/users/me', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const secret = testSecrets().JWT_SECRET;
  const tokenFor = async (tenant: string, userId: string, authIdentityId: string) =>
    signActorToken(
      tenantJwtSecret(secret, tenant),
      {
        actor_id: userId,
        actor_type: 'user',
        auth_identity_id: authIdentityId,
        app_metadata: { user_id: userId },
      },
      3600,
    );
  const adminOf = async (tenant: string) => {
    const db = fleet.databases.commerce((await fleet.registry.get(tenant))!);
    return (
      await sql<{ user_id: string; auth_identity_id: string }>`
        select u.id as user_id, ai.id as auth_identity_id from "user" u
        join auth_identity ai on ai.app_metadata->>'user_id' = u.id where u.email = ${demoAdmin.email}`.execute(
        db,
      )
    ).rows[0]!;
  };

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    await seedAdminUsers({
      registry: fleet.registry,
      databases: fleet.databases,
      log: () => {},
    } as unknown as SeedContext);
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource({}), start: async () => {}, close: async () => {} },
      },
      loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent', ADMIN_WEB_DIST: '/nonexistent' }),
    );
    useActorCheck(app, commerceActorCheck(fleet.databases));
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('answers the signed-in user; no token, another tenant’s token or a deleted user is a 401', async () => {
    const acme = await adminOf('acme');
    const token = await tokenFor('acme', acme.user_id, acme.auth_identity_id);
    const me = (headers: Record<string, string>) => app.inject({ url: '/admin/users/me', headers });
    const ok = await me({ ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      user: { id: acme.user_id, email: demoAdmin.email, first_name: 'Demo', last_name: 'Admin' },
    });

    expect((await me(viaProxy('acme.localhost'))).statusCode).toBe(401);
    const crossed = await me({ ...viaProxy('globex.localhost'), authorization: `Bearer ${token}` });
    expect(crossed.statusCode).toBe(401);

    const db = fleet.databases.commerce((await fleet.registry.get('acme'))!);
    await sql`update "user" set deleted_at = now() where id = ${acme.user_id}`.execute(db);
    const gone = await me({ ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ type: 'unauthorized' });
  });
});
