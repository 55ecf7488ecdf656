import {
  createTestFleet,
  httpRequest,
  startTestProxy,
  type TestFleet,
  testSecrets,
  type TestProxy,
  viaProxy,
} from '@aplt/testing';
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
    const env = { ...process.env, ...fleet.env, ...testSecrets(), LOG_LEVEL: 'silent' };
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
    const dead = await proxy.request('acme.localhost', '/-/catalog/healthz');
    expect(dead.status).toBe(502);
    expect(dead.json()).toEqual({ type: 'unavailable', message: 'The service did not answer' });
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

  it('refuses a backend port reached around the proxy, from any address, even with a copied header', async () => {
    const direct = `http://127.0.0.1:${proxy.ports.documents}/admin/aplt/invoices`;
    for (const localAddress of ['127.0.0.1', '127.0.0.7']) {
      const res = await httpRequest(direct, { host: 'acme.localhost', localAddress });
      expect(res.status, localAddress).toBe(401);
      expect(res.json()).toEqual({
        type: 'unauthorized',
        message: 'This request did not pass the access service',
      });
    }
    // An assertion made for another tenant's host does not open this one.
    const borrowed = await httpRequest(direct, {
      host: 'acme.localhost',
      headers: { 'x-access-assertion': viaProxy('globex.localhost')['x-access-assertion']! },
    });
    expect(borrowed.status).toBe(401);
  });

  it("replaces a client's own X-Access-Assertion with the access service's", async () => {
    const forged = { 'x-access-assertion': 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' };
    const outsider = await proxy.request('acme.localhost', '/admin/aplt/invoices', {
      headers: forged,
      localAddress: '127.0.0.2',
    });
    expect(outsider.status).toBe(401);
    const machine = await proxy.request('acme.localhost', '/', { headers: forged });
    expect(machine.status).toBe(200);
  });

  it('forwards /-/<service>/ only for healthz and readyz', async () => {
    expect((await proxy.request('acme.localhost', '/-/documents/healthz')).status).toBe(200);
    for (const path of [
      '/-/documents/docs/json',
      '/-/documents/admin/aplt/invoices',
      '/-/devprojects/internal/dev-projects/from-ticket',
      '/-/documents/healthz/../admin/aplt/invoices',
    ]) {
      const res = await proxy.request('acme.localhost', path);
      // Falls through to the tenant root (the admin service), which has no such route.
      expect(res.status, path).toBe(404);
      expect(res.text()).not.toContain('openapi');
    }
  });

  it('never routes /internal, on any host, in any spelling', async () => {
    for (const [host, path] of [
      ['acme.localhost', '/internal/dev-projects/from-ticket'],
      ['acme.localhost', '/%69nternal/dev-projects/from-ticket'],
      ['acme.localhost', '/INTERNAL/x'],
      ['portal.localhost', '/internal/anything'],
      ['modal.localhost', '/internal'],
      ['access.localhost', '/internal/x'],
    ] as const) {
      const res = await proxy.request(host, path, { method: 'POST', body: { tenant_id: 'globex' } });
      expect(res.status, `${host}${path}`).toBe(403);
      expect(res.json()).toEqual({ type: 'not_allowed', message: 'Not routed' });
    }
  });

  it('hides /docs and /metrics from whoever comes through the proxy', async () => {
    for (const path of ['/docs', '/docs/json']) {
      const res = await proxy.request('acme.localhost', path);
      expect(res.status, path).toBe(404);
    }
    expect((await proxy.request('access.localhost', '/metrics')).status).toBe(404);
    expect((await proxy.request('access.localhost', '/docs/json')).status).toBe(404);
    // The service's own port still answers the machine itself.
    const own = await httpRequest(`http://127.0.0.1:${proxy.ports.documents}/docs/json`);
    expect(own.status).toBe(200);
  });

  it("answers a body over the proxy's own limit with 413 and the fleet's error body", async () => {
    const res = await proxy.request('acme.localhost', '/admin/aplt/quotations', {
      method: 'POST',
      body: Buffer.alloc(3 * 1024 * 1024, 'a'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ type: 'payload_too_large' });
  });
});
