import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocuments } from '../../../../deploy/fleet/seeds/documents';
import type { SeedContext } from '../../../../deploy/fleet/seeds/index';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { adminToken, testEnv } from '../fixtures';
import { compiledSchematron, describeErrors, validateEinvoice } from './einvoice-validation';

/**
 * The demo's invoice (the start command's seed: quotation -> order -> invoice for K0001) and a
 * credit note on it pass the UBL 2.1 XSD, EN 16931 and Peppol BIS 3.0, so the demo stays a valid
 * e-invoice as the documents grow.
 */
describe('the demo seed invoice is a valid e-invoice', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  const storeDir = mkdtempSync(join(tmpdir(), 'aplt-docstore-demo-'));

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    await Promise.all([compiledSchematron('cen'), compiledSchematron('peppol')]);
    fleet = await createTestFleet([{ id: 'acme' }]);
    const env = testEnv(fleet.env);
    // The seed step reads only these from its context.
    const ctx = { env, registry: fleet.registry, databases: fleet.databases, log: () => {} };
    await seedDocuments(ctx as unknown as SeedContext);
    process.env.DOCUMENT_STORE_DIR = storeDir;
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(env),
    );
    token = await adminToken('acme');
  }, 900_000);

  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('its invoice and a credit note on it pass all three', async () => {
    const list = await call('GET', '/admin/aplt/invoices');
    expect(list.statusCode, list.body).toBe(200);
    const invoices = list.json().data as Array<{ id: number; document_type: string }>;
    const invoice = invoices.find((i) => i.document_type === 'invoice');
    expect(invoice).toBeDefined();
    const credit = await call('POST', '/admin/aplt/credit-notes', {
      invoice_id: invoice!.id,
      reason: 'Demo: volledige creditering',
    });
    expect(credit.statusCode, credit.body).toBe(201);

    for (const [segment, id] of [
      ['invoices', invoice!.id],
      ['credit-notes', credit.json().id],
    ] as const) {
      const res = await call('GET', `/admin/aplt/${segment}/ubl?id=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      const report = await validateEinvoice(res.body);
      expect(report.errors, `${segment}: ${describeErrors(report)}`).toEqual([]);
      expect(report.fired.cen).toBeGreaterThan(10);
    }
  });
});
