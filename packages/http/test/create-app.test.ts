import { staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet } from '@aplt/db/testing';
import { testSecrets, viaProxy } from '../testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, createApp, requireActor, signActorToken, tenantJwtSecret } from '../src';

const secret = testSecrets().JWT_SECRET;
const claims = {
  actor_id: 'user_1',
  actor_type: 'user',
  auth_identity_id: 'authid_1',
  app_metadata: { user_id: 'user_1' },
};

describe('createApp', () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
  });
  afterAll(() => fleet?.cleanup());

  async function build() {
    const app = await createApp({
      name: 'test',
      logLevel: 'silent',
      registry: fleet.registry,
      licenses: staticFeatureSource({ globex: ['orders'] }),
      jwtSecret: secret,
      assertionPublicKey: testSecrets().ACCESS_ASSERTION_PUBLIC_KEY,
    });
    app.post('/things', { schema: { body: z.object({ qty: z.number().int().positive() }) } }, async () => ({
      ok: true,
    }));
    app.get('/conflict', async () => {
      throw conflict('Already converted', { allowed: ['x'] });
    });
    app.get('/boom', async () => {
      throw new Error('password=hunter2 in a database error');
    });
    app.get('/admin/aplt/quotations', { config: { feature: 'quotations' } }, async () => ({ ok: true }));
    app.get('/me', { preHandler: requireActor('user') }, async (request) => ({
      actor: request.actor?.actorId,
      tenant: request.tenant.id,
    }));
    let healthy = true;
    app.addReadinessCheck('db', async () => {
      if (!healthy) throw new Error('db down');
    });
    return { app, setHealthy: (v: boolean) => (healthy = v) };
  }

  it('answers validation failures with 400 and a list of issues', async () => {
    const { app } = await build();
    const res = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { ...viaProxy('acme.localhost') },
      payload: { qty: -1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'invalid_data',
      message: 'Request validation failed',
      issues: [{ path: 'body.qty' }],
    });
    const bad = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { ...viaProxy('acme.localhost'), 'content-type': 'application/json' },
      payload: '{"qty":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe('invalid_data');
  });

  it('uses the one body for HttpErrors and unknown routes, and hides 5xx details', async () => {
    const { app } = await build();
    const c = await app.inject({ url: '/conflict', headers: { ...viaProxy('acme.localhost') } });
    expect(c.statusCode).toBe(409);
    expect(c.json()).toEqual({ type: 'conflict', message: 'Already converted', allowed: ['x'] });
    const nf = await app.inject({ url: '/nope', headers: { ...viaProxy('acme.localhost') } });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toEqual({ type: 'not_found', message: 'Route GET /nope not found' });
    const boom = await app.inject({ url: '/boom', headers: { ...viaProxy('acme.localhost') } });
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toContain('hunter2');
    expect(boom.json()).toMatchObject({ type: 'unexpected_state', request_id: boom.headers['x-request-id'] });
  });

  it('resolves the tenant from the Host header and refuses unknown hosts', async () => {
    const { app } = await build();
    const unknown = await app.inject({ url: '/conflict', headers: { ...viaProxy('nobody.localhost') } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('nobody.localhost');
  });

  it('guards routes by the route-to-feature map per tenant', async () => {
    const { app } = await build();
    expect(
      (await app.inject({ url: '/admin/aplt/quotations', headers: { ...viaProxy('acme.localhost') } }))
        .statusCode,
    ).toBe(200);
    const refused = await app.inject({
      url: '/admin/aplt/quotations',
      headers: { ...viaProxy('globex.localhost') },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Feature not available', feature: 'quotations' });
    expect(refused.headers['x-license-revision']).toBeDefined();
  });

  it('accepts an admin token only on the tenant that issued it', async () => {
    const { app } = await build();
    const token = await signActorToken(tenantJwtSecret(secret, 'acme'), claims, 60);
    const ok = await app.inject({
      url: '/me',
      headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` },
    });
    expect(ok.json()).toEqual({ actor: 'user_1', tenant: 'acme' });
    const foreign = await app.inject({
      url: '/me',
      headers: { ...viaProxy('globex.localhost'), authorization: `Bearer ${token}` },
    });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ type: 'unauthorized', message: 'Unauthorized' });
    const customer = await signActorToken(
      tenantJwtSecret(secret, 'acme'),
      { ...claims, actor_type: 'customer' },
      60,
    );
    expect(
      (
        await app.inject({
          url: '/me',
          headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${customer}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('reports readiness from its checks and turns 503 when shutting down', async () => {
    const { app, setHealthy } = await build();
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', checks: { db: 'ok' } });
    setHealthy(false);
    const down = await app.inject({ url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { db: 'db down' } });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.listen({ port: 0 });
    const closing = app.close();
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(503);
    await closing;
  });
});
