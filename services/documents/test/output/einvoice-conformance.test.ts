import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allFeaturesClient } from '@aplt/licensing';
import type { ApltDatabase, Kysely } from '@aplt/db';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { loadPrintableDocument } from '../../src/output/document.service';
import { ImageEmbedder } from '../../src/output/image-embed';
import { buildUbl } from '../../src/output/ubl.service';
import { adminToken, seedCatalog, tenantDbs, testEnv } from '../fixtures';
import { COMPANY } from './document-fixtures';
import { compiledSchematron, describeErrors, validateEinvoice, validateXsd } from './einvoice-validation';
import { UblDoc } from './ubl-check';

/**
 * Every kind of e-invoice the platform emits, made by the documents core through its own routes
 * on a real tenant database and fetched from the UBL route, checked against the official OASIS
 * UBL 2.1 schema, the CEN EN 16931 Schematron and the Peppol BIS Billing 3.0 Schematron.
 */
describe('e-invoices pass UBL 2.1 XSD, EN 16931 and Peppol BIS 3.0', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  let db: Kysely<ApltDatabase>;
  const storeDir = mkdtempSync(join(tmpdir(), 'aplt-docstore-einvoice-'));
  /** Invoice and credit-note ids by scenario. */
  const invoices: Record<string, number> = {};
  const creditNotes: Record<string, number> = {};
  const SPECIAL_NAME = 'Bakkerij "Zoet & Zuur" <Jansen>\u0001 B.V.';

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` },
    });
    return res;
  };
  const created = async (url: string, payload: object) => {
    const res = await call('POST', url, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const ubl = async (segment: 'invoices' | 'credit-notes', id: number) => {
    const res = await call('GET', `/admin/aplt/${segment}/ubl?id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    // The first run on a machine compiles the Schematron (about a minute each, cached after).
    await Promise.all([compiledSchematron('cen'), compiledSchematron('peppol')]);
    fleet = await createTestFleet([{ id: 'acme' }]);
    db = tenantDbs(fleet, 'acme').aplt;
    const cat = await seedCatalog(db);
    const brand = await db
      .insertInto('aplt_brands')
      .values({ code: 'acme', name: 'Acme', is_default: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('aplt_cms_settings')
      .values(Object.entries(COMPANY).map(([key, value]) => ({ brand_id: brand.id, key, value })))
      .execute();
    const customer = (values: Record<string, unknown>) =>
      db
        .insertInto('aplt_customers')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r: { id: unknown }) => Number(r.id));
    // NL-R-004: a Dutch customer's address is complete (seedCatalog's has only a city).
    await db
      .updateTable('aplt_customers')
      .set({ address_line1: 'Oudegracht 10', postal_code: '3511 AB' })
      .where('id', '=', cat.customerNl)
      .execute();
    const exportCustomer = await customer({
      email: 'einkauf@werbe-ag.ch',
      company: 'Werbe AG',
      country: 'CH',
      vat_number: 'CHE-123.456.789',
      city: 'Zürich',
      postal_code: '8001',
      address_line1: 'Bahnhofstrasse 1',
    });
    // Neither a KvK nor a VAT number: no Peppol address (R010), so no e-invoice.
    const mailOnlyCustomer = await customer({
      email: 'info@tulp.nl',
      company: 'Tulp Marketing',
      country: 'NL',
      city: 'Haarlem',
      postal_code: '2011 LR',
      address_line1: 'Stationsplein 5',
    });
    const specialCustomer = await customer({
      email: 'inkoop@zoetzuur.nl',
      company: SPECIAL_NAME,
      first_name: 'Jan\u0001',
      last_name: '<Jansen>',
      country: 'NL',
      coc_number: '11223344',
      city: 'Ede',
      postal_code: '6711 AA',
      address_line1: 'Markt 1 & 2',
    });
    process.env.DOCUMENT_STORE_DIR = storeDir;
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(fleet.env)),
    );
    token = await adminToken('acme');

    // Domestic 21 %: quotation with a print technique (setup cost line) under the franco limit
    // (shipping line), confirmed into an order and invoiced.
    const invoiceOrder = async (customerId: number, quantity: number) => {
      const q = await created('/admin/aplt/quotations', {
        customer_id: customerId,
        title: 'Pennen met logo',
        source_code: 'manual',
        lines: [{ product_id: cat.productId, quantity, technique_id: cat.techniqueId, print_colours: 2 }],
      });
      const o = await created('/admin/aplt/quotations/confirm', { id: q.id });
      return created('/admin/aplt/invoices', { order_id: o.id, issue_date: '2026-01-10' });
    };
    const domestic = await invoiceOrder(cat.customerNl, 250);
    invoices.domestic = domestic.id;
    // Above the franco limit (750 excl. VAT) the order has no shipping line.
    invoices.franco = (await invoiceOrder(cat.customerNl, 1000)).id;
    invoices.reverseCharge = (await invoiceOrder(cat.customerDe, 250)).id;

    // Mixed 21/9/0 % with a discount (allowance) and an explicit setup cost and shipping charge.
    const mixed = await created('/admin/aplt/invoices', {
      customer_id: cat.customerNl,
      issue_date: '2026-02-01',
      reference: 'PO-4711',
      lines: [
        { product_id: cat.productId, quantity: 120, unit_price: '1.1333', discount_percent: '7.5' },
        {
          line_type: 'other',
          description: 'Kalender 2027 (boek)',
          quantity: 40,
          unit_price: '3.35',
          vat_rate: '9',
        },
        {
          line_type: 'other',
          description: 'Verzending naar buitenland',
          quantity: 1,
          unit_price: '8.40',
          vat_rate: '0',
        },
        { line_type: 'setup', description: 'Opstartkosten drukvorm', quantity: 1, unit_price: '45.00' },
        { line_type: 'shipping', description: 'Verzendkosten', quantity: 1, unit_price: '12.99' },
        { line_type: 'discount', description: 'Kortingsactie januari', quantity: 1, unit_price: '-10.00' },
        { line_type: 'text', description: 'Geleverd in twee zendingen' },
      ],
    });
    invoices.mixed = mixed.id;
    invoices.export = (
      await created('/admin/aplt/invoices', {
        customer_id: exportCustomer,
        issue_date: '2026-02-02',
        // The product's own 21 %: an export is zero-rated in category G whatever the line says.
        lines: [{ product_id: cat.productId, quantity: 500 }],
      })
    ).id;
    invoices.exportOrder = (await invoiceOrder(exportCustomer, 250)).id;
    invoices.special = (
      await created('/admin/aplt/invoices', {
        customer_id: specialCustomer,
        issue_date: '2026-02-03',
        reference: 'Order "A&B" <7>',
        lines: [{ product_id: cat.productId, quantity: 10, description: 'Pen <blauw> & "rood"\u0001' }],
      })
    ).id;

    invoices.mailOnly = (
      await created('/admin/aplt/invoices', {
        customer_id: mailOnlyCustomer,
        issue_date: '2026-02-03',
        lines: [{ product_id: cat.productId, quantity: 10 }],
      })
    ).id;

    // Credit notes: part of a line, the whole mixed invoice (its discount line included), and a
    // reverse-charged one.
    const productLine = domestic.lines.find((l: { line_type: string }) => l.line_type === 'product');
    creditNotes.partial = (
      await created('/admin/aplt/credit-notes', {
        invoice_id: invoices.domestic,
        reason: '50 pennen beschadigd',
        issue_date: '2026-01-20',
        lines: [{ invoice_line_id: productLine.id, quantity: 50 }],
      })
    ).id;
    creditNotes.mixed = (
      await created('/admin/aplt/credit-notes', {
        invoice_id: invoices.mixed,
        reason: 'Bestelling geannuleerd',
        issue_date: '2026-02-05',
      })
    ).id;
    creditNotes.reverseCharge = (
      await created('/admin/aplt/credit-notes', {
        invoice_id: invoices.reverseCharge,
        reason: 'Verkeerde kleur',
        issue_date: '2026-01-25',
      })
    ).id;
    creditNotes.export = (
      await created('/admin/aplt/credit-notes', {
        invoice_id: invoices.exportOrder,
        reason: 'Te laat geleverd',
        issue_date: '2026-02-10',
      })
    ).id;
  }, 900_000);

  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    rmSync(storeDir, { recursive: true, force: true });
  });

  const kinds = [
    ['invoices', 'domestic'],
    ['invoices', 'franco'],
    ['invoices', 'mixed'],
    ['invoices', 'reverseCharge'],
    ['invoices', 'export'],
    ['invoices', 'exportOrder'],
    ['invoices', 'special'],
    ['credit-notes', 'partial'],
    ['credit-notes', 'mixed'],
    ['credit-notes', 'reverseCharge'],
    ['credit-notes', 'export'],
  ] as const;

  it.each(kinds)('%s %s: no XSD, EN 16931 or Peppol error', async (segment, name) => {
    const id = segment === 'invoices' ? invoices[name] : creditNotes[name];
    const report = await validateEinvoice(await ubl(segment, id!));
    expect(report.errors, describeErrors(report)).toEqual([]);
    // Both rule sets ran over the document (a Schematron that fires nothing checks nothing).
    expect(report.fired.cen).toBeGreaterThan(10);
    expect(report.fired.peppol).toBeGreaterThan(10);
  });

  it('the documents carry what each scenario is about', async () => {
    const domestic = new UblDoc(await ubl('invoices', invoices.domestic!));
    const types = domestic.values('cac:InvoiceLine/cac:Item/cbc:Name');
    expect(types).toEqual(['Balpen Classic', 'Cliché tampondruk', 'Verzendkosten']);
    expect(
      new UblDoc(await ubl('invoices', invoices.franco!)).values('cac:InvoiceLine/cac:Item/cbc:Name'),
    ).toEqual(['Balpen Classic', 'Cliché tampondruk']);

    const mixed = new UblDoc(await ubl('invoices', invoices.mixed!));
    expect(mixed.values('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['S', 'S', 'Z']);
    expect(mixed.values('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).toEqual([
      '21',
      '9',
      '0',
    ]);
    expect(mixed.count('cac:InvoiceLine')).toBe(6); // the text line is no invoice line
    // The discount is a negative quantity at a positive price (BR-27).
    expect(mixed.value('cac:InvoiceLine[6]/cbc:InvoicedQuantity')).toBe('-1');
    expect(mixed.value('cac:InvoiceLine[6]/cac:Price/cbc:PriceAmount')).toBe('10.00');
    expect(mixed.value('cbc:BuyerReference')).toBe('PO-4711');

    const rc = new UblDoc(await ubl('invoices', invoices.reverseCharge!));
    expect(rc.values('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['AE']);
    expect(rc.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe(
      'VATEX-EU-AE',
    );
    expect(rc.value('cac:AccountingCustomerParty/cac:Party/cbc:EndpointID')).toBe('DE123456789');

    const exp = new UblDoc(await ubl('invoices', invoices.export!));
    expect(exp.value('cac:AccountingCustomerParty/cac:Party/cbc:EndpointID')).toBe('CHE123456789');
    expect(
      exp.eval(`string(//*[local-name()='AccountingCustomerParty']//*[local-name()='EndpointID']/@schemeID)`),
    ).toBe('9927');
    expect(
      exp.value('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode'),
    ).toBe('CH');
    expect(exp.value('cac:TaxTotal/cbc:TaxAmount')).toBe('0.00');
    // Export outside the EU: one G subtotal at 0 % with its exemption code (BR-G-01, -05, -10),
    // every line in G, no reverse-charge note.
    for (const doc of [exp, new UblDoc(await ubl('invoices', invoices.exportOrder!))]) {
      expect(doc.values('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['G']);
      expect(doc.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).toBe('0');
      expect(doc.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe(
        'VATEX-EU-G',
      );
      expect(new Set(doc.values('cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:ID'))).toEqual(
        new Set(['G']),
      );
      expect(doc.values('cbc:Note').join(' ')).not.toContain('BTW verlegd');
    }
    const expCredit = new UblDoc(await ubl('credit-notes', creditNotes.export!));
    expect(expCredit.values('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['G']);
    expect(expCredit.value('cac:TaxTotal/cbc:TaxAmount')).toBe('0.00');

    const cn = new UblDoc(await ubl('credit-notes', creditNotes.mixed!));
    expect(cn.value('cbc:CreditNoteTypeCode')).toBe('381');
    expect(cn.value('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe(
      new UblDoc(await ubl('invoices', invoices.mixed!)).value('cbc:ID'),
    );
    expect(cn.count('cac:CreditNoteLine')).toBe(6);
  });

  it('refuses, with a 422 that says why, an e-invoice for a customer without a Peppol address', async () => {
    const res = await call('GET', `/admin/aplt/invoices/ubl?id=${invoices.mailOnly}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain('no KvK number or VAT number');
  });

  it('escapes XML specials and drops control characters a name carries from the database', async () => {
    const xml = await ubl('invoices', invoices.special!);
    expect(xml).toContain('<cbc:Name>Bakkerij "Zoet &amp; Zuur" &lt;Jansen&gt; B.V.</cbc:Name>');
    // eslint-disable-next-line no-control-regex -- no control character may reach the XML
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const d = new UblDoc(xml);
    expect(d.value('cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName')).toBe(
      'Bakkerij "Zoet & Zuur" <Jansen> B.V.',
    );
    expect(d.value('cac:AccountingCustomerParty/cac:Party/cac:Contact/cbc:Name')).toBe('Jan <Jansen>');
    expect(d.value('cac:InvoiceLine/cac:Item/cbc:Name')).toBe('Pen <blauw> & "rood"');
    expect(d.value('cbc:BuyerReference')).toBe('Order "A&B" <7>');
    expect(d.value('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:StreetName')).toBe(
      'Markt 1 & 2',
    );
  });

  it('a NUL and a lone surrogate (which no database row carries) still make well-formed, valid XML', async () => {
    // PostgreSQL refuses U+0000 and its driver encodes a lone surrogate as U+FFFD, so these reach
    // the writer only from other sources: build from the loaded document with them put in.
    const doc = await loadPrintableDocument(db, 'invoice', invoices.special!, new ImageEmbedder(1000));
    doc!.customer.company = '\u0000Zoet\uD800 & Zuur\u0000 \uDC00B.V.\u0007 \uD83D\uDE00';
    doc!.lines[0]!.description = '\u0000\u0001';
    const xml = await buildUbl(doc!);
    const report = await validateEinvoice(xml);
    expect(report.errors, describeErrors(report)).toEqual([]);
    const d = new UblDoc(xml);
    expect(d.value('cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name')).toBe(
      'Zoet\uFFFD & Zuur \uFFFDB.V. \uD83D\uDE00',
    );
    // A description of control characters only is no name: the SKU stands in.
    expect(d.value('cac:InvoiceLine/cac:Item/cbc:Name')).toBe('100-01');
  });

  it('the validation fails a broken document: XSD order, EN 16931 totals, Peppol and NL rules', async () => {
    const xml = await ubl('invoices', invoices.domestic!);
    const d = new UblDoc(xml);
    const payable = d.value('cac:LegalMonetaryTotal/cbc:PayableAmount');

    // Element order is the schema's: the due date after the type code is refused.
    const reordered = xml.replace(
      /(<cbc:DueDate>[^<]+<\/cbc:DueDate>)(<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>)/,
      '$2$1',
    );
    expect(reordered).not.toBe(xml);
    expect(validateXsd(reordered).ok).toBe(false);
    expect((await validateEinvoice(reordered)).errors.map((e) => e.id)).toContain('XSD');

    const wrongTotal = xml.replace(
      `<cbc:PayableAmount currencyID="EUR">${payable}</cbc:PayableAmount>`,
      '<cbc:PayableAmount currencyID="EUR">1.00</cbc:PayableAmount>',
    );
    const noStreet = xml.replace(/<cbc:StreetName>Industrieweg 12<\/cbc:StreetName>/, '');
    const badProfile = xml.replace('poacc:billing:01:1.0', 'poacc:billing:one:1.0');
    expect(wrongTotal).not.toBe(xml);
    expect((await validateEinvoice(wrongTotal)).errors.map((e) => e.id)).toContain('BR-CO-16');
    expect((await validateEinvoice(noStreet)).errors.map((e) => e.id)).toContain('NL-R-002');
    const profile = await validateEinvoice(badProfile);
    expect(profile.ok).toBe(false);
    expect(profile.errors.map((e) => e.id)).toContain('PEPPOL-EN16931-R007');
  });
});
