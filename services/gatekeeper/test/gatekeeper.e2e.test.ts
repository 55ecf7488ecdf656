import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  httpRequest,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { sql } from '@aplt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

describe('gatekeeper through the proxy', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;
  let adminToken: string;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    const acme = (await fleet.registry.get('acme'))!;
    await fleet.databases
      .commerce(acme)
      .insertInto('user')
      .values({ id: 'user_gk', email: 'boss@acme.test' })
      .execute();
    adminToken = await signActorToken(
      tenantJwtSecret(testSecrets().JWT_SECRET, 'acme'),
      {
        actor_id: 'user_gk',
        actor_type: 'user',
        auth_identity_id: 'authid_gk',
        app_metadata: { user_id: 'user_gk' },
      },
      600,
    );
    const config = loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent' });
    proxy = await startTestProxy({
      // The access service signs assertions with this process's key; gatekeeper verifies them.
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      gatekeeper: await buildApp(
        { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
        config,
      ),
    });
  });
  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
  });

  const admin = () => ({ authorization: `Bearer ${adminToken}` });

  it('takes a visitor from none to pending to approved, with the deciding admin recorded and audited', async () => {
    const first = await proxy.request('acme.localhost', '/store/access-check');
    expect(first.status).toBe(200);
    expect(first.json()).toMatchObject({ has_access: false, status: 'none' });

    const created = await proxy.request('acme.localhost', '/store/access-request', {
      method: 'POST',
      body: { name: 'Jan', email: 'jan@shop.test', company: 'Shop BV', message: 'Please let me in' },
    });
    expect(created.status).toBe(201);
    const { id } = created.json();

    expect((await proxy.request('acme.localhost', '/store/access-check')).json()).toMatchObject({
      has_access: false,
      status: 'pending',
    });
    const again = await proxy.request('acme.localhost', '/store/access-request', {
      method: 'POST',
      body: { name: 'Jan', email: 'jan@shop.test', company: 'Shop BV', message: 'again' },
    });
    expect(again.status).toBe(409);

    const pending = await proxy.request('acme.localhost', '/admin/aplt/access-requests', {
      headers: admin(),
    });
    expect(pending.json().access_requests.map((r: { id: number }) => r.id)).toEqual([id]);
    expect(pending.json().access_requests[0]).toMatchObject({
      ip_address: '127.0.0.1',
      email: 'jan@shop.test',
    });

    const decided = await proxy.request('acme.localhost', `/admin/aplt/access-requests/${id}`, {
      method: 'PUT',
      headers: admin(),
      body: { status: 'approved' },
    });
    expect(decided.status).toBe(200);
    expect(decided.json().access_request).toMatchObject({
      status: 'approved',
      approved_by: 'boss@acme.test',
    });
    expect(decided.json().access_request.approved_at).toBeTruthy();

    expect((await proxy.request('acme.localhost', '/store/access-check')).json()).toEqual({
      has_access: true,
      status: 'approved',
      message: 'Access granted.',
    });
    const twice = await proxy.request('acme.localhost', `/admin/aplt/access-requests/${id}`, {
      method: 'PUT',
      headers: admin(),
      body: { status: 'rejected' },
    });
    expect(twice.status).toBe(409);

    const acme = (await fleet.registry.get('acme'))!;
    const audit = await sql<{
      action: string;
      actor: string;
    }>`select action, actor from aplt_audit_log where entity_type = 'access_request'`.execute(
      fleet.databases.aplt(acme),
    );
    expect(audit.rows).toEqual([{ action: 'access_request.approved', actor: 'boss@acme.test' }]);
  });

  it('pages the admin list on the server: newest first, with the count of every match', async () => {
    const acme = (await fleet.registry.get('acme'))!;
    const db = fleet.databases.aplt(acme);
    // Three more pending requests from other addresses, a minute apart (newest last).
    for (const [i, ip] of ['10.9.0.1', '10.9.0.2', '10.9.0.3'].entries())
      await sql`insert into aplt_access_requests (ip_address, name, email, company, message, status, created_at)
        values (${ip}, ${`Visitor ${i}`}, ${`v${i}@shop.test`}, 'Shop', 'hi', 'pending', now() + ${`${i} minutes`}::interval)`.execute(
        db,
      );
    const page = await proxy.request('acme.localhost', '/admin/aplt/access-requests?limit=2&offset=1', {
      headers: admin(),
    });
    expect(page.status).toBe(200);
    expect(page.json()).toMatchObject({ count: 3, limit: 2, offset: 1 });
    expect(page.json().access_requests.map((r: { ip_address: string }) => r.ip_address)).toEqual([
      '10.9.0.2',
      '10.9.0.1',
    ]);
    const all = await proxy.request('acme.localhost', '/admin/aplt/access-requests?status=all&limit=1', {
      headers: admin(),
    });
    expect(all.json()).toMatchObject({ count: 4, offset: 0 });
    expect(all.json().access_requests).toHaveLength(1);
    const bad = await proxy.request('acme.localhost', '/admin/aplt/access-requests?offset=-1', {
      headers: admin(),
    });
    expect(bad.status).toBe(400);
  });

  it('answers a call that went around the proxy with 401, from any address, but its health checks', async () => {
    const direct = (path: string, localAddress?: string) =>
      httpRequest(`http://127.0.0.1:${proxy.ports.gatekeeper}${path}`, {
        host: 'acme.localhost',
        headers: admin(),
        ...(localAddress ? { localAddress } : {}),
      });
    for (const localAddress of [undefined, '127.0.0.7']) {
      for (const path of ['/store/access-check', '/admin/aplt/access-requests']) {
        const res = await direct(path, localAddress);
        expect(res.status, `${localAddress ?? '127.0.0.1'} ${path}`).toBe(401);
        expect(res.json()).toMatchObject({ type: 'unauthorized' });
      }
    }
    expect((await direct('/healthz')).status).toBe(200);
  });

  it('keeps tenants apart: approval on one storefront is not approval on another', async () => {
    expect((await proxy.request('globex.localhost', '/store/access-check')).json().status).toBe('none');
  });

  it('refuses bad input and unauthenticated admin calls with the stable error body', async () => {
    const bad = await proxy.request('acme.localhost', '/store/access-request', {
      method: 'POST',
      body: { name: '', email: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_data' });
    const anon = await proxy.request('acme.localhost', '/admin/aplt/access-requests');
    expect(anon.status).toBe(401);
    const missing = await proxy.request('acme.localhost', '/admin/aplt/access-requests/99999', {
      method: 'PUT',
      headers: admin(),
      body: { status: 'approved' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('gatekeeper visitor address', () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
  });
  afterAll(() => fleet?.cleanup());

  async function app() {
    return buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent', TRUSTED_PROXIES: '127.0.0.1/32' }),
    );
  }

  it('believes X-Forwarded-For and X-Real-IP only from a trusted proxy', async () => {
    const a = await app();
    const body = { name: 'V', email: 'v@x.test', company: '', message: '' };
    const forwarded = await a.inject({
      method: 'POST',
      url: '/store/access-request',
      remoteAddress: '127.0.0.1',
      headers: { ...viaProxy('acme.localhost'), 'x-forwarded-for': '203.0.113.7' },
      payload: body,
    });
    expect(forwarded.statusCode).toBe(201);
    const spoofed = await a.inject({
      method: 'GET',
      url: '/store/access-check',
      remoteAddress: '198.51.100.9',
      headers: {
        ...viaProxy('acme.localhost'),
        'x-forwarded-for': '203.0.113.7',
        'x-real-ip': '203.0.113.7',
      },
    });
    expect(spoofed.json().status).toBe('none');
    const realIp = await a.inject({
      method: 'GET',
      url: '/store/access-check',
      remoteAddress: '127.0.0.1',
      headers: { ...viaProxy('acme.localhost'), 'x-real-ip': '203.0.113.7' },
    });
    expect(realIp.json().status).toBe('pending');
  });

  it('limits how many requests one address may file', async () => {
    const a = await app();
    const acme = (await fleet.registry.get('acme'))!;
    await sql`insert into aplt_access_requests (ip_address, status) select '192.0.2.1', 'rejected' from generate_series(1, 5)`.execute(
      fleet.databases.aplt(acme),
    );
    const res = await a.inject({
      method: 'POST',
      url: '/store/access-request',
      remoteAddress: '192.0.2.1',
      headers: viaProxy('acme.localhost'),
      payload: { name: 'V', email: 'v@x.test', company: '', message: '' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ type: 'rate_limited' });
    expect(res.headers['retry-after']).toBe('3600');
  });
});
