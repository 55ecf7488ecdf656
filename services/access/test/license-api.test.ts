import { licenseChannel } from '@aplt/licensing';
import { createTestFleet, createTestRedis, testSecrets, type TestFleet, type TestRedis } from '@aplt/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { seedTenantLicenses } from '../src/licensing/license.service';
import { createAccessAppForTest } from './access-app';
import { csrfSession, injectSend, type Send } from './helpers';

describe('license API', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sub: Redis;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let send: Send;
  const messages: string[] = [];
  // A real CSRF pair from GET /api/auth/csrf (set in beforeAll).
  let csrf = { token: '', cookie: '' };
  const auth: Record<string, Record<string, string>> = {};
  // What the backends' license clients send.
  const svc = { authorization: `Bearer ${testSecrets().SERVICE_TOKEN}` };

  async function sessionFor(email: string, roles: string[], tenantId: string | null = null) {
    const user = await createUser(
      { db: app.accessDb! },
      { email, password: 'Correct-Horse-42!', roles, tenantId },
    );
    const token = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(token),
      userId: user.id,
      ip: '127.0.0.9',
      userAgent: 'test',
      hours: 1,
    });
    return { cookie: `aplt_session=${token}; ${csrf.cookie}`, 'x-csrf-token': csrf.token };
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }, { id: 'newco' }]);
    redis = await createTestRedis();
    sub = redis.redis.duplicate();
    await sub.subscribe(licenseChannel(redis.prefix));
    sub.on('message', (_c, m) => messages.push(m));
    app = await createAccessAppForTest(
      fleet.registry,
      { REDIS_PREFIX: redis.prefix },
      { redis: redis.redis },
    );
    send = injectSend(app);
    csrf = await csrfSession(send);
    await seedTenantLicenses(
      app.accessDb!,
      ['acme', 'globex'],
      [
        'crm',
        'designer_2d',
        'designer_external',
        'quotation_source_filter',
        'purchase_orders',
        'picking_lists',
        'shipments',
        'ai_assist',
      ],
    );
    auth.admin = await sessionFor('lic@example.com', ['license-admin']);
    auth.plain = await sessionFor('plain@example.com', []);
    auth.acmeAdmin = await sessionFor('boss@acme.example', ['tenant-admin'], 'acme');
  });
  afterAll(async () => {
    sub?.disconnect();
    await app?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  it('lists every registered tenant with its counts', async () => {
    const res = await send('/api/license/tenants', { headers: svc });
    expect(res.json().tenants).toEqual([
      expect.objectContaining({ tenant_id: 'acme', feature_count: 23, total_count: 31 }),
      expect.objectContaining({ tenant_id: 'globex', feature_count: 23, total_count: 31 }),
      expect.objectContaining({ tenant_id: 'newco', feature_count: 0, total_count: 0 }),
    ]);
  });

  it('reads licenses only with the service token or a session: 401 for anyone else', async () => {
    for (const path of ['/api/license/tenants', '/api/license/acme', '/api/license/acme/trials']) {
      const anon = await send(path);
      expect(anon.status, path).toBe(401);
      expect(anon.json()).toMatchObject({ type: 'unauthorized' });
      expect(anon.text()).not.toContain('globex');
      for (const authorization of ['Bearer wrong-token', `Bearer ${'é'.repeat(43)}`, 'Basic eDp5'])
        expect((await send(path, { headers: { authorization } })).status, authorization).toBe(401);
      expect((await send(path, { headers: svc })).status, path).toBe(200);
      expect((await send(path, { headers: auth.admin })).status, path).toBe(200);
      // Platform staff without the license role read too (the UI shows them nothing to change).
      expect((await send(path, { headers: auth.plain })).status, path).toBe(200);
    }
  });

  it("gives a tenant's own admin that tenant's licenses only", async () => {
    const list = await send('/api/license/tenants', { headers: auth.acmeAdmin });
    expect(list.json().tenants.map((t: { tenant_id: string }) => t.tenant_id)).toEqual(['acme']);
    expect((await send('/api/license/acme', { headers: auth.acmeAdmin })).status).toBe(200);
    const other = await send('/api/license/globex', { headers: auth.acmeAdmin });
    expect(other.status).toBe(403);
    expect(other.json()).toMatchObject({ type: 'not_allowed', tenant_id: 'globex' });
    expect((await send('/api/license/globex/trials', { headers: auth.acmeAdmin })).status).toBe(403);
  });

  it('answers 400, never 500, for a NUL in a tenant id, with or without credentials', async () => {
    for (const headers of [{}, svc, auth.admin]) {
      for (const path of ['/api/license/%00', '/api/license/ac%00me/trials', '/api/license/acme%00/audit']) {
        const res = await send(path, { headers });
        expect(res.status, path).toBe(400);
        expect(res.json()).toMatchObject({ type: 'invalid_data' });
      }
    }
    const put = await send('/api/license/%00', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'crm', enabled: true, reason: 'a\u0000b' },
    });
    expect(put.status).toBe(400);
  });

  it('answers the spec fields exactly, with ETag and revision, and 304 when unchanged', async () => {
    const res = await send('/api/license/acme', { headers: svc });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'all_features',
      'feature_count',
      'features',
      'groups',
      'tenant_id',
      'total_count',
    ]);
    expect(body.feature_count).toBe(23);
    expect(body.total_count).toBe(31);
    expect(body.all_features.crm).toBe(false);
    expect(body.groups.sales.enabled).toHaveLength(9);
    expect(body.groups.addons).toEqual({
      enabled: [],
      disabled: expect.arrayContaining(['crm', 'ai_assist']),
    });
    expect(res.headers['x-license-revision']).toBe('1');
    const again = await send('/api/license/acme', {
      headers: { ...svc, 'if-none-match': String(res.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers 404 for unknown or unlicensed tenants and 400 for unknown features', async () => {
    expect((await send('/api/license/nobody', { headers: svc })).json()).toMatchObject({
      type: 'not_found',
      tenant_id: 'nobody',
    });
    expect((await send('/api/license/newco', { headers: svc })).status).toBe(404);
    const bad = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'teleport', enabled: true },
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_data', feature: 'teleport' });
    const unknownTenant = await send('/api/license/nobody', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'crm', enabled: true },
    });
    expect(unknownTenant.status).toBe(404);
  });

  it('needs a session to write and the license-admin role (403 otherwise)', async () => {
    const anon = await send('/api/license/acme', {
      method: 'PUT',
      headers: { cookie: csrf.cookie, 'x-csrf-token': csrf.token },
      body: { feature: 'crm', enabled: true },
    });
    expect(anon.status).toBe(401);
    const plain = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.plain,
      body: { feature: 'crm', enabled: true },
    });
    expect(plain.status).toBe(403);
    expect(plain.json()).toMatchObject({ required_role: 'license-admin' });
    expect((await send('/api/license/acme/audit', { headers: auth.plain })).status).toBe(403);
    expect((await send('/api/license/acme/audit')).status).toBe(401);
  });

  it('writes the feature, its audit row with the session e-mail and a new revision, and publishes it', async () => {
    messages.length = 0;
    const res = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'crm', enabled: true, reason: 'upsell' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ tenant_id: 'acme', feature: 'crm', enabled: true, revision: '2' });
    const audit = (await send('/api/license/acme/audit', { headers: auth.admin })).json().entries;
    expect(audit[0]).toMatchObject({
      feature: 'crm',
      old_enabled: false,
      new_enabled: true,
      actor_email: 'lic@example.com',
      reason: 'upsell',
    });
    await expect.poll(() => messages).toContainEqual(JSON.stringify({ tenant_id: 'acme', revision: '2' }));
    // The tenant's own admin may read its audit log, not another tenant's.
    expect((await send('/api/license/acme/audit', { headers: auth.acmeAdmin })).status).toBe(200);
    expect((await send('/api/license/globex/audit', { headers: auth.acmeAdmin })).status).toBe(403);
  });

  it('rolls the write back when the audit insert fails (same transaction)', async () => {
    const before = (await send('/api/license/acme', { headers: svc })).json().all_features.shipments;
    await app
      .accessDb!.schema.alterTable('tenant_license_audit')
      .addCheckConstraint('no_sabotage', (await import('@aplt/db')).sql`reason IS DISTINCT FROM 'sabotage'`)
      .execute();
    const res = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'shipments', enabled: !before, reason: 'sabotage' },
    });
    expect(res.status).toBe(500);
    expect((await send('/api/license/acme', { headers: svc })).json().all_features.shipments).toBe(before);
    await app.accessDb!.schema.alterTable('tenant_license_audit').dropConstraint('no_sabotage').execute();
  });

  it('bulk-updates and clones with one audit row per feature', async () => {
    const bulk = await send('/api/license/globex/bulk', {
      method: 'PUT',
      headers: auth.admin,
      body: { features: ['cms', 'cms_modules', 'cms'], enabled: false },
    });
    expect(bulk.json()).toMatchObject({ features: ['cms', 'cms_modules'], enabled: false });
    expect((await send('/api/license/globex', { headers: svc })).json().feature_count).toBe(21);

    const clone = await send('/api/license/newco/clone', {
      method: 'POST',
      headers: auth.admin,
      body: { source_tenant_id: 'globex' },
    });
    expect(clone.status).toBe(200);
    expect(clone.json()).toMatchObject({ feature_count: 21, total_count: 31 });
    const newco = (await send('/api/license/newco', { headers: svc })).json();
    expect(newco.all_features.cms).toBe(false);
    const audit = (await send('/api/license/newco/audit', { headers: auth.admin })).json().entries;
    expect(audit).toHaveLength(31);
    expect(audit[0].reason).toBe('cloned from globex');
    expect(
      (
        await send('/api/license/newco/clone', {
          method: 'POST',
          headers: auth.admin,
          body: { source_tenant_id: 'nobody' },
        })
      ).status,
    ).toBe(404);
  });

  it('lets a trial entitlement read as disabled after its expiry', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const res = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'ai_assist', enabled: true, expires_at: future },
    });
    expect(res.json().expires_at).toBe(future);
    expect((await send('/api/license/acme', { headers: svc })).json().all_features.ai_assist).toBe(true);
    expect((await send('/api/license/acme/trials', { headers: svc })).json().trials).toEqual({
      ai_assist: future,
    });
    const etag = String((await send('/api/license/acme', { headers: svc })).headers.etag);
    // Time passes: the trial ends without any write, and the ETag changes with the content.
    await app
      .accessDb!.updateTable('tenant_license_expiry')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('feature', '=', 'ai_assist')
      .execute();
    const after = await send('/api/license/acme', { headers: { ...svc, 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.json().all_features.ai_assist).toBe(false);
    expect(after.json().features).not.toContain('ai_assist');
    const past = await send('/api/license/acme', {
      method: 'PUT',
      headers: auth.admin,
      body: { feature: 'ai_assist', enabled: true, expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
  });

  it('serves /admin/licenses only with a session: 401 without, read-only for a tenant admin', async () => {
    expect((await send('/admin/licenses')).status).toBe(401);
    expect((await send('/admin/licenses', { headers: { accept: 'text/html' } })).status).toBe(401);
    const full = await send('/admin/licenses', { headers: auth.admin });
    expect(full.text()).toContain('canWrite=true');
    const ro = await send('/admin/licenses', { headers: auth.acmeAdmin });
    expect(ro.text()).toContain('canWrite=false');
    expect(ro.text()).toContain('onlyTenant="acme"');
    expect((await send('/admin/licenses', { headers: auth.plain })).status).toBe(404);
  });
});
