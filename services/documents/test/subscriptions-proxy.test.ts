import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { createTestFleet, startTestProxy, type TestFleet, type TestProxy, testSecrets } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

describe('subscriptions through the proxy', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;

  const call = async (method: string, path: string, body?: object, auth = true) => {
    const res = await proxy.request('acme.localhost', path, {
      method,
      body,
      headers: auth ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, body: res.body.length ? res.json() : null };
  };

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    cat = await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: await buildApp(deps, loadConfig(testEnv(fleet.env))),
    });
    token = await adminToken('acme');
  });

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
  });

  it('creates a subscription, runs the billing for a date and lists the invoice and the run', async () => {
    expect((await call('GET', '/admin/aplt/subscriptions', undefined, false)).status).toBe(401);
    const created = await call('POST', '/admin/aplt/subscriptions', {
      customer_id: cat.customerNl,
      description: 'Onderhoud webshop',
      interval: 'yearly',
      start_date: '2026-03-01',
      lines: [{ description: 'Onderhoud', unit_price: '1200.00' }],
    });
    expect(created.status).toBe(201);
    const run = await call('POST', '/admin/aplt/subscriptions/billing-runs', { date: '2026-12-01' });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ status: 'succeeded', created_count: 1, billing_date: '2026-12-01' });
    expect(run.body.created[0]).toMatchObject({
      subscription_id: created.body.id,
      invoice_number: 'F-2026-0001',
      period_start: '2026-03-01',
      period_end: '2027-02-28',
      total: '1452.00',
    });
    const invoices = await call('GET', `/admin/aplt/subscriptions/${created.body.id}/invoices`);
    expect(invoices.body).toMatchObject({ count: 1, data: [{ invoice_number: 'F-2026-0001' }] });
    const runs = await call('GET', '/admin/aplt/subscriptions/billing-runs');
    expect(runs.body).toMatchObject({ count: 1, data: [{ id: run.body.id, created_count: 1 }] });
    // This app has no queue connection: the setting is kept, the schedule is reported as none.
    const settings = await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: true });
    expect(settings.body).toMatchObject({ billing_enabled: true, schedule: null });
    const missing = await call('GET', '/admin/aplt/subscriptions/4242');
    expect(missing).toMatchObject({ status: 404, body: { type: 'not_found' } });
  });
});
