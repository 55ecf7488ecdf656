import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from '../fixtures';
import { COMPANY } from './document-fixtures';
import { pdfText } from './poppler';
import { compiledSchematron, describeErrors, validateEinvoice } from './einvoice-validation';

/**
 * Output on documents made by the documents core through its own routes (not inserted rows):
 * guards the contract between the two halves of the service (columns, totals, VAT summary).
 */
describe('output of documents created by the documents core', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  const ids: Record<string, number> = {};
  const storeDir = mkdtempSync(join(tmpdir(), 'aplt-docstore-core-'));

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    // The first run on a machine compiles the Schematron (cached after, see einvoice-validation).
    await Promise.all([compiledSchematron('cen'), compiledSchematron('peppol')]);
    fleet = await createTestFleet([{ id: 'acme' }]);
    const db = tenantDbs(fleet, 'acme').aplt;
    const cat = await seedCatalog(db);
    // NL-R-004: a Dutch customer's e-invoice needs its street, postal code and city.
    await db
      .updateTable('aplt_customers')
      .set({ address_line1: 'Oudegracht 10', postal_code: '3511 AB' })
      .where('id', '=', cat.customerNl)
      .execute();
    const brand = await db
      .selectFrom('aplt_brands')
      .select('id')
      .orderBy('is_default', 'desc')
      .executeTakeFirst();
    const brandId =
      brand?.id ??
      (
        await db
          .insertInto('aplt_brands')
          .values({ code: 'acme', name: 'Acme', is_default: true })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    await db
      .insertInto('aplt_cms_settings')
      .values(Object.entries(COMPANY).map(([key, value]) => ({ brand_id: brandId, key, value })))
      .onConflict((oc) =>
        oc.columns(['brand_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
      )
      .execute();
    process.env.DOCUMENT_STORE_DIR = storeDir;
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(fleet.env)),
    );
    token = await adminToken('acme');

    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      title: 'Pennen met logo',
      source_code: 'manual',
      lines: [{ product_id: cat.productId, quantity: 250, technique_id: cat.techniqueId, print_colours: 2 }],
    });
    expect(q.statusCode, q.body).toBe(201);
    ids.quotations = q.json().id;
    const o = await call('POST', '/admin/aplt/quotations/confirm', { id: ids.quotations });
    expect(o.statusCode, o.body).toBe(201);
    ids.orders = o.json().id;
    const inv = await call('POST', '/admin/aplt/invoices', {
      order_id: ids.orders,
      issue_date: '2026-01-10',
      payment_term_days: 30,
    });
    expect(inv.statusCode, inv.body).toBe(201);
    ids.invoices = inv.json().id;
    const productLine = inv.json().lines.find((l: { line_type: string }) => l.line_type === 'product');
    const cn = await call('POST', '/admin/aplt/credit-notes', {
      invoice_id: ids.invoices,
      reason: '50 pennen beschadigd',
      issue_date: '2026-01-20',
      lines: [{ invoice_line_id: productLine.id, quantity: 50 }],
    });
    expect(cn.statusCode, cn.body).toBe(201);
    ids['credit-notes'] = cn.json().id;
  }, 900_000);

  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('prints each of the four with the totals the core computed', async () => {
    const expected: Record<string, string[]> = {
      quotations: [
        'Offerte',
        'Tampondruk',
        'Opstartkosten € 90,00',
        'BTW 21% over € 577,99 € 121,38',
        'Totaal € 699,37',
      ],
      orders: [
        'Orderbevestiging',
        'Verzendkosten € 12,99',
        'BTW 21% over € 577,99 € 121,38',
        'Totaal € 699,37',
      ],
      invoices: [
        'Factuur',
        'F-2026-0001',
        'Vervaldatum 09-02-2026',
        'BTW 21% over € 577,99 € 121,38',
        'Totaal € 699,37',
      ],
      'credit-notes': [
        'Creditnota',
        'crediteert factuur F-2026-0001 van 10-01-2026',
        'BTW 21% over € 95,00 € 19,95',
        'Totaal € 114,95',
      ],
    };
    for (const [segment, parts] of Object.entries(expected)) {
      const res = await call('GET', `/admin/aplt/${segment}/pdf?id=${ids[segment]}`);
      expect(res.statusCode, res.body).toBe(200);
      const text = pdfText(res.rawPayload);
      for (const part of [COMPANY.company_name, COMPANY.vat_number, ...parts])
        expect(text, segment).toContain(part);
    }
  });

  it('builds valid UBL for the core invoice and credit note', async () => {
    for (const segment of ['invoices', 'credit-notes']) {
      const res = await call('GET', `/admin/aplt/${segment}/ubl?id=${ids[segment]}`);
      expect(res.statusCode, res.body).toBe(200);
      const report = await validateEinvoice(res.body);
      expect(report.errors, `${segment}: ${describeErrors(report)}`).toEqual([]);
    }
  });
});
