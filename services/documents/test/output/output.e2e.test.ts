import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { createTestFleet, startTestProxy, type TestFleet, type TestProxy, testSecrets } from '@aplt/testing';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { tenantDbs } from '../fixtures';
import { COMPANY, type DocumentFixture, insertDocumentFixture } from './document-fixtures';
import { makePng } from './png';
import { pdfImageCount, pdfInfo, pdfText, renderFirstPage } from './poppler';
import { compiledSchematron, describeErrors, validateEinvoice } from './einvoice-validation';
import { UblDoc } from './ubl-check';

const HOST = 'acme.localhost';

describe('document output through the proxy (PDF, .eml, UBL)', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;
  let images: Server;
  let imageHits = 0;
  let storeDir: string;
  let token: string;
  let fx: DocumentFixture;
  let documentsApp: Awaited<ReturnType<typeof buildApp>>;

  const get = (path: string, auth = true) =>
    proxy.request(HOST, path, auth ? { headers: { authorization: `Bearer ${token}` } } : {});
  const post = (path: string, body: object) =>
    proxy.request(HOST, path, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    // The first run on a machine compiles the Schematron (cached after, see einvoice-validation).
    await Promise.all([compiledSchematron('cen'), compiledSchematron('peppol')]);
    // A stand-in for the supplier's image CDN: a real HTTP server on loopback.
    const png = makePng(120, [200, 60, 40], [250, 220, 80]);
    images = createServer((req, res) => {
      imageHits++;
      if (req.url === '/pen.png' || req.url === '/bag.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        res.end(png);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
    const imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;

    fleet = await createTestFleet([{ id: 'acme' }]);
    fx = await insertDocumentFixture(tenantDbs(fleet, 'acme').aplt, imageBase);

    storeDir = mkdtempSync(join(tmpdir(), 'aplt-docstore-'));
    process.env.DOCUMENT_STORE_DIR = storeDir;
    process.env.PDF_POOL_SIZE = '2';
    const config = loadConfig({ ...process.env, ...fleet.env, ...testSecrets(), LOG_LEVEL: 'silent' });
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    documentsApp = await buildApp(deps, config);
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: documentsApp,
    });
    token = await signActorToken(
      tenantJwtSecret(config.JWT_SECRET, 'acme'),
      {
        actor_id: 'user_x',
        actor_type: 'user',
        auth_identity_id: 'authid_x',
        app_metadata: { user_id: 'user_x' },
      },
      3600,
    );
  }, 900_000);

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
    await new Promise((r) => images?.close(r));
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  });

  const pdf = async (segment: string, id: number) => {
    const res = await get(`/admin/aplt/${segment}/pdf?id=${id}`);
    expect(res.status, res.text().slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    const info = pdfInfo(res.body);
    expect(info['Page size']).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)|^595\.\d+ x 842 pts \(A4\)/);
    return { res, text: pdfText(res.body) };
  };

  const expectCompany = (text: string) => {
    for (const part of [
      COMPANY.company_name,
      COMPANY.address,
      `${COMPANY.postal_code} ${COMPANY.city}`,
      COMPANY.coc_number,
      COMPANY.vat_number,
      COMPANY.iban,
    ]) {
      expect(text).toContain(part);
    }
  };

  it('quotation PDF: company, customer, lines with techniques and setup costs, VAT per rate, terms, images', async () => {
    const hitsBefore = imageHits;
    const { res, text } = await pdf('quotations', fx.quotationId);
    expect(res.headers['content-disposition']).toBe('inline; filename="offerte-Q-2026-0001.pdf"');
    expectCompany(text);
    expect(text).toContain('Offerte');
    expect(text).toContain('Q-2026-0001');
    expect(text).toContain('Bakkerij Jansen B.V.');
    expect(text).toContain('Dorpsstraat 5');
    expect(text).toContain('Geldig tot 02-12-2026');
    expect(text).toContain('Pen Classic');
    expect(text).toContain('Bedrukking: Tampondruk, positie Clip, 1 kleur(en)');
    expect(text).toContain('Zeefdruk');
    expect(text).toContain('Opstartkosten: Cliché tampondruk');
    expect(text).toContain('Opstartkosten: Zeefdrukraam per kleur');
    expect(text).toContain('€ 250,00');
    expect(text).toContain('€ 325,00');
    expect(text).toContain('BTW 21% over € 680,00 € 142,80');
    expect(text).toContain('BTW 9% over € 240,00 € 21,60');
    expect(text).toContain('Totaal € 1.084,40');
    expect(text).toContain('Voorwaarden');
    expect(text).toContain('Levertijd circa 10 werkdagen');
    // Logo plus the two product photos, fetched by the service and embedded in the file.
    expect(pdfImageCount(res.body)).toBeGreaterThanOrEqual(3);
    expect(imageHits - hitsBefore).toBe(2);
  });

  it('order confirmation PDF shows its lines, VAT and total', async () => {
    const { res, text } = await pdf('orders', fx.orderId);
    expect(res.headers['content-disposition']).toContain('orderbevestiging-O-2026-0001.pdf');
    expectCompany(text);
    expect(text).toContain('Orderbevestiging');
    expect(text).toContain('O-2026-0001');
    expect(text).toContain('Offerte Q-2026-0001');
    expect(text).toContain('Subtotaal € 490,00');
    expect(text).toContain('Opstartkosten € 45,00');
    expect(text).toContain('Opstartkosten tampondruk');
    expect(text).toContain('BTW 21% over € 295,00 € 61,95');
    expect(text).toContain('BTW 9% over € 240,00 € 21,60');
    expect(text).toContain('Totaal € 618,55');
  });

  it('invoice PDF: payment terms and due date, persisted at first render and served from storage', async () => {
    const first = await pdf('invoices', fx.invoiceId);
    const text = first.text;
    expectCompany(text);
    expect(text).toContain('Factuur');
    expect(text).toContain('F-2026-0001');
    expect(text).toContain('Vervaldatum 04-12-2026');
    expect(text).toContain('binnen 30 dagen, uiterlijk 04-12-2026');
    expect(text).toContain('factuurnummer F-2026-0001');
    expect(text).toContain('Tampondruk');
    expect(text).toContain('BTW 21% over € 295,00 € 61,95');
    expect(text).toContain('BTW 9% over € 240,00 € 21,60');
    expect(text).toContain('Totaal € 618,55');

    const db = tenantDbs(fleet, 'acme').aplt;
    const row = await db
      .selectFrom('aplt_invoice_headers')
      .select(['pdf_path', 'pdf_sha256', 'pdf_generated_at'])
      .where('id', '=', fx.invoiceId)
      .executeTakeFirstOrThrow();
    expect(row.pdf_path).toMatch(/^acme\/invoices\/F-2026-0001-[0-9a-f]{12}\.pdf$/);
    expect(readFileSync(join(storeDir, row.pdf_path!)).equals(first.res.body)).toBe(true);

    // The company renames itself: a sent invoice must not change, a quotation shows the new name.
    await db
      .updateTable('aplt_cms_settings')
      .set({ value: 'Acme Nieuw B.V.' })
      .where('key', '=', 'company_name')
      .execute();
    try {
      const again = await get(`/admin/aplt/invoices/pdf?id=${fx.invoiceId}`);
      expect(again.body.equals(first.res.body)).toBe(true);
      expect(pdfText((await get(`/admin/aplt/quotations/pdf?id=${fx.quotationId}`)).body)).toContain(
        'Acme Nieuw B.V.',
      );
    } finally {
      await db
        .updateTable('aplt_cms_settings')
        .set({ value: COMPANY.company_name })
        .where('key', '=', 'company_name')
        .execute();
    }
  });

  it('credit note PDF names the invoice it credits (number and date) and the amounts', async () => {
    const { res, text } = await pdf('credit-notes', fx.creditNoteId);
    expect(res.headers['content-disposition']).toContain('creditnota-C-2026-0001.pdf');
    expectCompany(text);
    expect(text).toContain('Creditnota');
    expect(text).toContain('C-2026-0001');
    expect(text).toContain('Deze creditnota crediteert factuur F-2026-0001 van 04-11-2026.');
    expect(text).toContain('Reden: Beschadigd geleverd');
    expect(text).toContain('Chocoladereep met logo');
    expect(text).toContain('BTW 9% over € 60,00 € 5,40');
    expect(text).toContain('Totaal € 65,40');
    // A credit note id is not an invoice and vice versa.
    expect((await get(`/admin/aplt/invoices/pdf?id=${fx.creditNoteId}`)).status).toBe(404);
    expect((await get(`/admin/aplt/credit-notes/pdf?id=${fx.invoiceId}`)).status).toBe(404);
  });

  it('proforma: printed as "Proforma factuur"; two first requests at once store one original', async () => {
    const [a, b] = await Promise.all([
      get(`/admin/aplt/invoices/pdf?id=${fx.proformaId}`),
      get(`/admin/aplt/invoices/pdf?id=${fx.proformaId}`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.equals(b.body)).toBe(true);
    const text = pdfText(a.body);
    expect(text).toContain('Proforma factuur');
    expect(text).toContain('P-2026-0001');
    expect(text).toContain('Totaal € 121,00');
    expect(
      readdirSync(join(storeDir, 'acme', 'invoices')).filter((f) => f.startsWith('P-2026-0001')),
    ).toHaveLength(1);
    // A proforma is no tax document: no e-invoice for it.
    const ubl = await get(`/admin/aplt/invoices/ubl?id=${fx.proformaId}`);
    expect(ubl.status).toBe(422);
    expect(ubl.json().message).toContain('proforma');
  });

  it('a stored invoice PDF whose file was lost is rendered and stored again', async () => {
    const db = tenantDbs(fleet, 'acme').aplt;
    await get(`/admin/aplt/invoices/pdf?id=${fx.reverseChargeInvoiceId}`);
    const before = await db
      .selectFrom('aplt_invoice_headers')
      .select('pdf_path')
      .where('id', '=', fx.reverseChargeInvoiceId)
      .executeTakeFirstOrThrow();
    rmSync(join(storeDir, before.pdf_path!));
    const again = await get(`/admin/aplt/invoices/pdf?id=${fx.reverseChargeInvoiceId}`);
    expect(again.status).toBe(200);
    expect(pdfText(again.body)).toContain('F-2026-0002');
    const after = await db
      .selectFrom('aplt_invoice_headers')
      .select(['pdf_path', 'pdf_sha256'])
      .where('id', '=', fx.reverseChargeInvoiceId)
      .executeTakeFirstOrThrow();
    expect(readFileSync(join(storeDir, after.pdf_path!)).equals(again.body)).toBe(true);
  });

  it('reverse-charge invoice says "BTW verlegd" with the customer VAT number and no Dutch VAT', async () => {
    const { text } = await pdf('invoices', fx.reverseChargeInvoiceId);
    expect(text).toContain('BTW verlegd');
    expect(text).toContain('BE0123456789');
    expect(text).toContain('Totaal € 500,00');
    expect(text).not.toContain('BTW 21%');
    // A quotation for that customer: the core stored no VAT, the PDF says why.
    const q = pdfText((await get(`/admin/aplt/quotations/pdf?id=${fx.reverseChargeQuotationId}`)).body);
    expect(q).toContain('BTW verlegd (€ 920,00) € 0,00');
    expect(q).toContain('Totaal € 920,00');
    expect(q).not.toContain('BTW 21%');
  });

  it('prints in the customer language: English and German templates', async () => {
    const en = pdfText((await get(`/admin/aplt/quotations/pdf?id=${fx.quotationNoEmailId}`)).body);
    expect(en).toContain('Quotation');
    expect(en).toContain('Unit price');
    expect(en).toContain('VAT 21% on €680.00 €142.80');
    expect(en).toContain('Total €1,084.40');
    const de = pdfText((await get(`/admin/aplt/quotations/pdf?id=${fx.quotationGermanId}`)).body);
    expect(de).toContain('Angebot');
    expect(de).toContain('Gesamt € 1.084,40');
    expect(de).toContain('Einrichtungskosten');
  });

  it('renders the first page of a quotation and an invoice to PNG for a person to look at', async () => {
    const dir = resolve(tmpdir(), 'aplt-output-preview');
    mkdirSync(dir, { recursive: true });
    const res = await get(`/admin/aplt/quotations/pdf?id=${fx.quotationId}`);
    const png = renderFirstPage(res.body, join(dir, 'quotation-page1'));
    const inv = await get(`/admin/aplt/invoices/pdf?id=${fx.invoiceId}`);
    const png2 = renderFirstPage(inv.body, join(dir, 'invoice-page1'));
    console.info(`page previews: ${png} ${png2}`);
    for (const file of [png, png2]) {
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('refuses without an admin token, and answers 404 for an unknown id and 400 for a bad one', async () => {
    expect((await get(`/admin/aplt/invoices/pdf?id=${fx.invoiceId}`, false)).status).toBe(401);
    const missing = await get('/admin/aplt/orders/pdf?id=999999');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'not_found' });
    const bad = await get('/admin/aplt/orders/pdf?id=abc');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_data' });
  });

  for (const [segment, name, key, word] of [
    ['quotations', 'offerte-Q-2026-0001.eml', 'quotationId', 'offerte Q-2026-0001'],
    ['orders', 'orderbevestiging-O-2026-0001.eml', 'orderId', 'orderbevestiging O-2026-0001'],
    ['invoices', 'factuur-F-2026-0001.eml', 'invoiceId', 'factuur F-2026-0001'],
    ['credit-notes', 'creditnota-C-2026-0001.eml', 'creditNoteId', 'creditnota C-2026-0001'],
  ] as const) {
    it(`${segment} .eml opens as a draft to the customer with the PDF attached`, async () => {
      const id = fx[key];
      const res = await post(`/admin/aplt/${segment}/eml`, { id });
      expect(res.status, res.text().slice(0, 300)).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
      expect(res.headers['content-type']).toMatch(/^message\/rfc822/);
      const raw = res.text();
      expect(raw).toMatch(/\r\nX-Unsent: 1\r\n/);
      expect(raw).toMatch(/Content-Type: multipart\/mixed; boundary=/);

      const mail = await simpleParser(res.body);
      expect(mail.headers.get('x-unsent')).toBe('1');
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]!.address : null).toBe(fx.customerEmail);
      expect(mail.from!.value[0]).toMatchObject({ address: COMPANY.email, name: COMPANY.company_name });
      expect(mail.subject).toContain(word.split(' ')[1]!);
      expect(mail.text).toContain('Beste Petra Jansen,');
      expect(mail.text).toContain(word);
      expect(mail.text).toContain('Met vriendelijke groet');
      expect(mail.attachments).toHaveLength(1);
      const attachment = mail.attachments[0]!;
      expect(attachment.contentType).toBe('application/pdf');
      expect(attachment.filename).toBe(name.replace('.eml', '.pdf'));

      const direct = await get(`/admin/aplt/${segment}/pdf?id=${id}`);
      expect(attachment.content.equals(direct.body)).toBe(true);
    });
  }

  it('.eml: unknown id 404, customer without e-mail 422, bad body 400', async () => {
    const missing = await post('/admin/aplt/orders/eml', { id: 424242 });
    expect(missing.status).toBe(404);
    const noMail = await post('/admin/aplt/quotations/eml', { id: fx.quotationNoEmailId });
    expect(noMail.status).toBe(422);
    expect(noMail.json()).toMatchObject({ type: 'unprocessable', field: 'customer.email' });
    expect(noMail.json().message).toContain('no e-mail address');
    expect((await post('/admin/aplt/invoices/eml', {})).status).toBe(400);
    // A credit note's draft takes only a credit note; an invoice id is not one.
    expect((await post('/admin/aplt/credit-notes/eml', { id: fx.invoiceId })).status).toBe(404);
  });

  const expectValid = async (xml: string) => {
    const report = await validateEinvoice(xml);
    expect(report.errors, describeErrors(report)).toEqual([]);
  };

  it('UBL invoice: passes the official UBL 2.1 XSD, EN 16931 and Peppol BIS 3.0 rules', async () => {
    const res = await get(`/admin/aplt/invoices/ubl?id=${fx.invoiceId}`);
    expect(res.status, res.text().slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="factuur-F-2026-0001.xml"');
    const xml = res.text();
    await expectValid(xml);

    const d = new UblDoc(xml);
    expect(d.value('cbc:ID')).toBe('F-2026-0001');
    expect(d.value('cbc:InvoiceTypeCode')).toBe('380');
    expect(d.value('cbc:IssueDate')).toBe('2026-11-04');
    expect(d.value('cbc:DueDate')).toBe('2026-12-04');
    expect(d.value('cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID')).toBe(
      COMPANY.coc_number,
    );
    expect(d.value('cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
      COMPANY.vat_number,
    );
    expect(d.value('cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('58');
    expect(d.value('cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID')).toBe(COMPANY.iban);
    expect(d.value('cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName')).toBe(
      'Bakkerij Jansen B.V.',
    );
    expect(d.values('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount')).toEqual(['61.95', '21.60']);
    expect(d.value('cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('618.55');
    expect(d.count('cac:InvoiceLine')).toBe(3);

    // The validation can fail: without its supplier the schema refuses it, with a wrong VAT
    // total EN 16931 does (BR-CO-14: the subtotals do not add up to it).
    const broken = xml.replace(/<cac:AccountingSupplierParty>.*<\/cac:AccountingSupplierParty>/s, '');
    expect((await validateEinvoice(broken)).errors.map((e) => e.id)).toContain('XSD');
    const wrongVat = await validateEinvoice(
      xml.replace(
        '<cbc:TaxAmount currencyID="EUR">83.55</cbc:TaxAmount>',
        '<cbc:TaxAmount currencyID="EUR">83.56</cbc:TaxAmount>',
      ),
    );
    expect(wrongVat.errors.map((e) => e.id)).toContain('BR-CO-14');
  });

  it('UBL credit note cites the credited invoice; reverse charge is category AE with VATEX-EU-AE', async () => {
    const cn = await get(`/admin/aplt/credit-notes/ubl?id=${fx.creditNoteId}`);
    expect(cn.status, cn.text().slice(0, 300)).toBe(200);
    const cnXml = cn.text();
    await expectValid(cnXml);
    const c = new UblDoc(cnXml);
    expect(c.value('cbc:CreditNoteTypeCode')).toBe('381');
    expect(c.value('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe('F-2026-0001');
    expect(c.value('cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')).toBe('2026-11-04');
    expect(c.value('cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('65.40');

    const rc = await get(`/admin/aplt/invoices/ubl?id=${fx.reverseChargeInvoiceId}`);
    const rcXml = rc.text();
    await expectValid(rcXml);
    const r = new UblDoc(rcXml);
    expect(r.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('AE');
    expect(r.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).toBe(
      'VATEX-EU-AE',
    );
    expect(r.value('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReason')).toBe(
      'BTW verlegd',
    );
    expect(r.value('cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
      'BE0123456789',
    );
    expect(r.value('cac:TaxTotal/cbc:TaxAmount')).toBe('0.00');

    // Quotations have no e-invoice, and an unknown invoice is 404.
    expect((await get('/admin/aplt/invoices/ubl?id=987654')).status).toBe(404);
  });

  it('survives a killed browser: the next request gets a new one', async () => {
    const pool = documentsApp.documentOutput.pool;
    const pid = pool.browserPid();
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    const results = await Promise.all(
      [fx.quotationId, fx.orderId, fx.quotationGermanId].map((id, i) =>
        get(`/admin/aplt/${i === 1 ? 'orders' : 'quotations'}/pdf?id=${id}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(pool.browserPid()).not.toBe(pid);
    const ready = await proxy.request(HOST, '/-/documents/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json().checks.browser).toBe('ok');
  });
});
