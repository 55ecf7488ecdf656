import { staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

describe('admin feature endpoints and sidebar filtering', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    // acme has only two sales features and one system feature; globex is absent: all features.
    const licenses = {
      ...staticFeatureSource({ acme: ['quotations', 'invoices', 'parameters', 'dunning'] }),
      start: async () => {},
      close: async () => {},
    };
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses },
      loadConfig({ LOG_LEVEL: 'silent' }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('GET /admin/features lists the enabled features, their sidebar items and the source', async () => {
    const res = await app.inject({ url: '/admin/features', headers: { host: 'acme.localhost' } });
    expect(res.json()).toMatchObject({
      tenant_id: 'acme',
      features: ['quotations', 'invoices', 'parameters', 'dunning'],
      sidebar_items: ['01-quotations', '03-invoices', '30-parameters'],
      status: { source: 'env', all_features_mode: false },
    });
  });

  it('GET /api/store/features is public and has exactly {tenant_id, features}', async () => {
    const res = await app.inject({ url: '/api/store/features', headers: { host: 'globex.localhost' } });
    expect(Object.keys(res.json()).sort()).toEqual(['features', 'tenant_id']);
    expect(res.json().features).toHaveLength(31);
  });

  it('the /app sidebar shows only licensed items and hides headers without visible children', async () => {
    const html = (await app.inject({ url: '/app', headers: { host: 'acme.localhost' } })).body;
    expect(html).toContain('data-item="01-quotations"');
    expect(html).toContain('data-item="30-parameters"');
    expect(html).not.toContain('data-item="02-aplt-orders"');
    expect(html).toContain('data-section="sales"');
    expect(html).not.toContain('data-section="products"');
    expect(html).not.toContain('data-section="addons"');
    const all = (await app.inject({ url: '/app', headers: { host: 'globex.localhost' } })).body;
    expect(all).toContain('data-section="addons"');
    expect(all.match(/data-item=/g)).toHaveLength(23);
  });
});
