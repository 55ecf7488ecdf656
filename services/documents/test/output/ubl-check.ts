import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Decimal from 'decimal.js';

/**
 * Checks UBL output with libxml2's xmllint: XSD validation and the Peppol BIS / EN 16931 / NLCIUS
 * business rules we implement, evaluated as XPath over the document (a schema cannot say them).
 * UBL_XSD_DIR may point at the official OASIS UBL 2.1 xsd/ folder (same maindoc/common layout).
 */
const XSD_DIR = process.env.UBL_XSD_DIR ?? resolve(import.meta.dirname, 'fixtures/ubl-2.1-peppol-subset');

export function validateUbl(xml: string): { ok: boolean; output: string } {
  const root = xml.includes('<CreditNote ') ? 'CreditNote' : 'Invoice';
  return withFile(xml, (file) => {
    const run = spawnSync(
      'xmllint',
      ['--noout', '--schema', join(XSD_DIR, 'maindoc', `UBL-${root}-2.1.xsd`), file],
      {
        encoding: 'utf8',
      },
    );
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  });
}

/** Local-name XPath steps: p('cac:TaxTotal/cbc:TaxAmount') -> *[local-name()='TaxTotal']/... */
const p = (path: string) =>
  path
    .split('/')
    .map((step) => {
      const [name, predicate] = step.split('[');
      const local = name!.includes(':') ? name!.split(':')[1] : name;
      return local === '' ? '' : `*[local-name()='${local}']${predicate ? `[${predicate}` : ''}`;
    })
    .join('/');

export class UblDoc {
  constructor(readonly xml: string) {}

  /** String value of an XPath under the root, e.g. value('cac:LegalMonetaryTotal/cbc:PayableAmount'). */
  value(path: string): string {
    return this.eval(`string(/*/${p(path)})`);
  }
  count(path: string): number {
    return Number(this.eval(`count(/*/${p(path)})`));
  }
  values(path: string): string[] {
    const n = this.count(path);
    return Array.from({ length: n }, (_, i) => this.eval(`string((/*/${p(path)})[${i + 1}])`));
  }
  eval(expr: string): string {
    return withFile(this.xml, (file) =>
      execFileSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' }).trim(),
    );
  }
}

/** Returns the list of broken rules (empty when the document passes). */
export function checkBusinessRules(xml: string): string[] {
  const d = new UblDoc(xml);
  const broken: string[] = [];
  const rule = (id: string, ok: boolean, detail = '') => {
    if (!ok) broken.push(`${id}${detail ? `: ${detail}` : ''}`);
  };
  const credit = xml.includes('<CreditNote ');
  const lineTag = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const qtyTag = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const dec = (v: string) => new Decimal(v || '0');

  rule('BR-01', d.value('cbc:CustomizationID').includes('peppol.eu:2017:poacc:billing:3.0'));
  rule('BR-02', d.value('cbc:ID') !== '');
  rule(
    'PEPPOL-EN16931-R003',
    d.value('cbc:BuyerReference') !== '' || d.count('cac:OrderReference/cbc:ID') > 0,
  );

  const lines = d.count(lineTag);
  rule('BR-16', lines > 0, 'at least one line');
  const lineAmounts = d.values(`${lineTag}/cbc:LineExtensionAmount`).map(dec);
  const lineSum = lineAmounts.reduce((a, b) => a.plus(b), new Decimal(0));
  const total = (name: string) => dec(d.value(`cac:LegalMonetaryTotal/cbc:${name}`));
  rule(
    'BR-CO-10',
    lineSum.equals(total('LineExtensionAmount')),
    `${lineSum} vs ${total('LineExtensionAmount')}`,
  );
  rule('BR-CO-13', total('TaxExclusiveAmount').equals(total('LineExtensionAmount')));
  const subtotalTax = d.values('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount').map(dec);
  const taxTotal = dec(d.value('cac:TaxTotal/cbc:TaxAmount'));
  rule('BR-CO-14', subtotalTax.reduce((a, b) => a.plus(b), new Decimal(0)).equals(taxTotal));
  rule('BR-CO-15', total('TaxInclusiveAmount').equals(total('TaxExclusiveAmount').plus(taxTotal)));
  rule('BR-CO-16', total('PayableAmount').equals(total('TaxInclusiveAmount').minus(total('PrepaidAmount'))));
  if (!credit && total('PayableAmount').gt(0)) {
    rule('BR-CO-25', d.value('cbc:DueDate') !== '' || d.count('cac:PaymentTerms/cbc:Note') > 0);
  }

  // Per VAT category and rate: taxable = sum of its lines (BR-S-08 ...), VAT = taxable x rate (BR-S-09).
  for (let i = 1; i <= d.count('cac:TaxTotal/cac:TaxSubtotal'); i++) {
    const sub = `cac:TaxTotal/cac:TaxSubtotal[${i}]`;
    const cat = d.value(`${sub}/cac:TaxCategory/cbc:ID`);
    const rate = dec(d.value(`${sub}/cac:TaxCategory/cbc:Percent`));
    const taxable = dec(d.value(`${sub}/cbc:TaxableAmount`));
    const vat = dec(d.value(`${sub}/cbc:TaxAmount`));
    let sum = new Decimal(0);
    for (let l = 1; l <= lines; l++) {
      const lc = d.value(`${lineTag}[${l}]/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`);
      const lr = dec(d.value(`${lineTag}[${l}]/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`));
      if (lc === cat && lr.equals(rate)) sum = sum.plus(lineAmounts[l - 1]!);
    }
    rule(`BR-${cat}-08`, sum.equals(taxable), `category ${cat} ${rate}%: lines ${sum} vs ${taxable}`);
    rule(
      `BR-${cat}-09`,
      taxable.times(rate).dividedBy(100).toDecimalPlaces(2).equals(vat),
      `${cat} ${rate}%`,
    );
    if (['AE', 'E', 'K', 'G', 'O'].includes(cat)) {
      rule(`BR-${cat}-10`, d.value(`${sub}/cac:TaxCategory/cbc:TaxExemptionReasonCode`) !== '');
    }
    if (cat === 'AE') {
      rule(
        'BR-AE-02',
        d.value('cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') !== '',
      );
      rule(
        'BR-AE-03',
        d.value('cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') !== '',
      );
      rule('BR-AE-06', rate.isZero() && vat.isZero());
    }
  }

  // PEPPOL-EN16931-R120: line amount = quantity x (price / base quantity).
  for (let l = 1; l <= lines; l++) {
    const qty = dec(d.value(`${lineTag}[${l}]/${qtyTag}`));
    const price = dec(d.value(`${lineTag}[${l}]/cac:Price/cbc:PriceAmount`));
    const base = d.value(`${lineTag}[${l}]/cac:Price/cbc:BaseQuantity`);
    const expected = qty
      .times(price)
      .dividedBy(base ? dec(base) : 1)
      .toDecimalPlaces(2);
    rule(
      'PEPPOL-EN16931-R120',
      expected.equals(lineAmounts[l - 1]!),
      `line ${l}: ${expected} vs ${lineAmounts[l - 1]}`,
    );
    rule('BR-27', price.gte(0), `line ${l} price`);
  }

  // Dutch CIUS (NLCIUS) rules for a supplier in the Netherlands.
  const supplier = 'cac:AccountingSupplierParty/cac:Party';
  if (d.value(`${supplier}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`) === 'NL') {
    if (credit) rule('NL-R-001', d.value('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID') !== '');
    rule(
      'NL-R-002',
      ['StreetName', 'CityName', 'PostalZone'].every(
        (f) => d.value(`${supplier}/cac:PostalAddress/cbc:${f}`) !== '',
      ),
    );
    rule(
      'NL-R-003',
      ['0106', '0190'].includes(
        d.eval(`string(/*/${p(`${supplier}/cac:PartyLegalEntity/cbc:CompanyID`)}/@schemeID)`),
      ),
    );
    if (d.count('cac:PaymentMeans') > 0) {
      rule(
        'NL-R-007',
        ['30', '48', '49', '57', '58', '59'].includes(d.value('cac:PaymentMeans/cbc:PaymentMeansCode')),
      );
    }
  }
  rule('PEPPOL-EN16931-R020', d.eval(`string(/*/${p(`${supplier}/cbc:EndpointID`)}/@schemeID)`) !== '');
  rule(
    'PEPPOL-EN16931-R010',
    d.eval(`string(/*/${p('cac:AccountingCustomerParty/cac:Party/cbc:EndpointID')}/@schemeID)`) !== '',
  );
  return broken;
}

function withFile<T>(xml: string, fn: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'aplt-ubl-'));
  const file = join(dir, 'doc.xml');
  writeFileSync(file, xml);
  try {
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
