import { createTestFleet, startTestProxy, type TestFleet, type TestProxy } from '@aplt/testing';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildAdmin } from '@aplt/service-admin/app';
import { loadConfig as adminConfig } from '@aplt/service-admin/config';
import { buildApp as buildDocuments } from '@aplt/service-documents/app';
import { loadConfig as documentsConfig } from '@aplt/service-documents/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('tenant backends through the proxy', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    const env = { ...process.env, ...fleet.env, LOG_LEVEL: 'silent' };
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry),
      admin: await buildAdmin(deps, adminConfig(env)),
      documents: await buildDocuments(deps, documentsConfig(env)),
    });
  });

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
  });

  it('routes each tenant host to the tenant it names', async () => {
    for (const id of ['acme', 'globex']) {
      const res = await proxy.request(`${id}.localhost`, '/');
      expect(res.status).toBe(200);
      expect(res.json().tenant.id).toBe(id);
    }
  });

  it('reaches a service health route under /-/<service>/ and reports its readiness', async () => {
    const res = await proxy.request('acme.localhost', '/-/documents/readyz');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready' });
  });

  it('answers 502 for a service that is not running, and a JSON 404 for an unknown host', async () => {
    expect((await proxy.request('acme.localhost', '/-/catalog/healthz')).status).toBe(502);
    const unknown = await proxy.request('nobody.localhost', '/');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ type: 'not_found' });
  });

  it('asks the access service first: another client than the machine itself is refused', async () => {
    const res = await proxy.request('acme.localhost', '/', { localAddress: '127.0.0.2' });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ type: 'unauthorized', ip: '127.0.0.2' });
  });

  it('does not pass a client-sent identity header upstream', async () => {
    const res = await proxy.request('acme.localhost', '/api/identity', {
      headers: { 'x-auth-user': 'spoofed@example.com', 'x-auth-via': 'session' },
    });
    expect(res.status).toBe(200);
    // The admin service echoes what forward auth set: the access service's values only.
    expect(res.json()).toEqual({ user: null, roles: null, via: 'whitelist' });
  });
});
