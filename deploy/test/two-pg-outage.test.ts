import { provisionTenant } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  type PgCluster,
  startPgCluster,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  testSecrets,
  testServers,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@aplt/service-documents/app';
import { loadConfig } from '@aplt/service-documents/config';
import { adminToken, seedCatalog, testEnv } from '../../services/documents/test/fixtures';
import { expectOutageContained } from './pg-outage';

/**
 * Issue #18 "Several database servers", the outage half, without the whole fleet: the documents
 * service and the access service behind the real Caddy, acme's databases on the test server and
 * globex's on a second PostgreSQL server of its own (the registry row names it). The document
 * flow works on both; when the second server stops under traffic, globex answers 503 with the
 * stable body (never 500, never a hang) while acme keeps answering 200, and globex answers 200
 * again within 5 s of the server's return. (two-pg-servers.e2e.test.ts runs the same through the
 * start command's whole fleet, with password sync and the tenant update.)
 */
describe('a tenant on a second PostgreSQL server that stops and returns', () => {
  let fleet: TestFleet;
  let second: PgCluster;
  let proxy: TestProxy;

  const call = async (tenant: string, method: string, path: string, body?: object) => {
    const res = await proxy.request(`${tenant}.localhost`, path, {
      method,
      body,
      headers: { authorization: `Bearer ${await adminToken(tenant)}` },
    });
    return res;
  };

  beforeAll(async () => {
    [fleet, second] = await Promise.all([createTestFleet([{ id: 'acme' }]), startPgCluster()]);
    await provisionTenant(
      fleet.registry,
      testServers().pg,
      { id: 'globex', kind: 'tenant', name: 'Globex', hosts: ['globex.localhost'] },
      { placement: { host: second.host, port: second.port } },
    );
    await seedCatalog(fleet.tenantDbs.get('acme')!.aplt.db);
    await seedCatalog(fleet.databases.aplt((await fleet.registry.get('globex'))!));
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: await buildApp(deps, loadConfig(testEnv(fleet.env))),
    });
  }, 300_000);

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
    await second?.destroy();
  }, 120_000);

  it('runs quotation -> order -> invoice on a tenant of each server, each in its own database', async () => {
    for (const tenant of ['acme', 'globex']) {
      const db = fleet.databases.aplt((await fleet.registry.get(tenant))!);
      const port = (
        await db
          .selectNoFrom((eb) => eb.fn<number>('current_setting', [eb.val('port')]).as('p'))
          .executeTakeFirstOrThrow()
      ).p;
      expect(Number(port), tenant).toBe(tenant === 'acme' ? testServers().pg.port : second.port);
      const customer = await db
        .selectFrom('aplt_customers')
        .select('id')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const q = await call(tenant, 'POST', '/admin/aplt/quotations', {
        customer_id: Number(customer.id),
        title: `Two servers ${tenant}`,
        source_code: 'manual',
        lines: [
          { line_type: 'product', description: 'Pen', quantity: 100, unit_price: '1.00', setup_costs: [] },
        ],
      });
      expect(q.status, `${tenant}: ${q.text()}`).toBe(201);
      const o = await call(tenant, 'POST', '/admin/aplt/quotations/confirm', { id: q.json().id });
      expect(o.status, `${tenant}: ${o.text()}`).toBe(201);
      const inv = await call(tenant, 'POST', '/admin/aplt/invoices', { order_id: o.json().id });
      expect(inv.status, `${tenant}: ${inv.text()}`).toBe(201);
      expect(inv.json().invoice_number).toMatch(/^F-\d{4}-0001$/);
    }
  });

  it('answers 503 with the stable body for globex while its server is down, acme unaffected, globex back within 5 s', async () => {
    await expectOutageContained({
      request: (tenant) => call(tenant, 'GET', '/admin/aplt/quotations'),
      server: second,
    });
  }, 180_000);
});
