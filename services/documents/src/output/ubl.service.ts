import Decimal from 'decimal.js';
import type { CustomerBlock, DocumentLine, PrintableDocument, VatRow } from './document.model';

/**
 * UBL 2.1 Invoice / CreditNote following Peppol BIS Billing 3.0 (EN 16931 CIUS) with the Dutch
 * NLCIUS specifics: the supplier is identified by its KvK number (scheme 0106) as legal entity
 * and endpoint, its BTW number as VAT id, payment by SEPA credit transfer (code 58) to its IBAN,
 * and reverse-charged supplies in category AE with exemption reason "BTW verlegd".
 */
export const PEPPOL_CUSTOMIZATION =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
/** UN/ECE Rec. 20 "piece". */
const UNIT_CODE = 'H87';

/** VATEX codes (CEF code list) for the categories that need an exemption reason (BR-AE-10 ...). */
const EXEMPTION: Record<string, { code: string; text: string }> = {
  AE: { code: 'VATEX-EU-AE', text: 'BTW verlegd' },
  E: { code: 'VATEX-EU-132', text: 'Vrijgesteld van BTW' },
  K: { code: 'VATEX-EU-IC', text: 'Intracommunautaire levering' },
  G: { code: 'VATEX-EU-G', text: 'Export buiten de EU' },
  O: { code: 'VATEX-EU-O', text: 'Niet onderworpen aan BTW' },
};

export class UblError extends Error {}

const esc = (v: unknown) =>
  String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const el = (name: string, value: unknown, attrs: Record<string, string> = {}) =>
  value === null || value === undefined || value === ''
    ? ''
    : `<${name}${Object.entries(attrs)
        .map(([k, v]) => ` ${k}="${esc(v)}"`)
        .join('')}>${esc(value)}</${name}>`;
const wrap = (name: string, ...children: string[]) => {
  const inner = children.filter(Boolean).join('');
  return inner ? `<${name}>${inner}</${name}>` : '';
};
const amount = (name: string, value: Decimal.Value, currency: string) =>
  el(name, new Decimal(value).toFixed(2), { currencyID: currency });
const percent = (rate: string) => new Decimal(rate).toString();

/** Builds the UBL XML of an invoice or credit note (proformas are not tax documents: refused). */
export function buildUbl(doc: PrintableDocument): string {
  if (doc.kind !== 'invoice' && doc.kind !== 'credit_note')
    throw new UblError('only invoices and credit notes');
  if (doc.proforma) throw new UblError('a proforma is not a tax document and has no e-invoice');
  const credit = doc.kind === 'credit_note';
  const root = credit ? 'CreditNote' : 'Invoice';
  const cur = doc.currency;
  const lines = doc.lines.filter((l) => l.lineType !== 'text');
  const lineSum = lines.reduce((sum, l) => sum.plus(l.lineTotal), new Decimal(0));
  const vatRows = doc.vat.length > 0 ? doc.vat : [fallbackVat(lines)];
  const taxTotal = vatRows.reduce((sum, v) => sum.plus(v.vat), new Decimal(0));
  const inclusive = lineSum.plus(taxTotal);
  const notes = [
    doc.reverseCharge ? `BTW verlegd${doc.vatNote ? ` - ${doc.vatNote}` : ''}` : doc.vatNote,
    credit ? doc.creditReason : null,
  ].filter(Boolean);

  const body = [
    el('cbc:CustomizationID', PEPPOL_CUSTOMIZATION),
    el('cbc:ProfileID', PEPPOL_PROFILE),
    el('cbc:ID', doc.number),
    el('cbc:IssueDate', doc.date),
    credit ? '' : el('cbc:DueDate', doc.dueDate),
    credit ? el('cbc:CreditNoteTypeCode', '381') : el('cbc:InvoiceTypeCode', '380'),
    ...notes.map((n) => el('cbc:Note', n)),
    el('cbc:DocumentCurrencyCode', cur),
    // PEPPOL-EN16931-R003: a buyer reference or an order reference must be present.
    el('cbc:BuyerReference', doc.reference ?? doc.customer.customerNumber ?? doc.number),
    doc.orderNumber ? wrap('cac:OrderReference', el('cbc:ID', doc.orderNumber)) : '',
    credit && doc.credited
      ? wrap(
          'cac:BillingReference',
          wrap(
            'cac:InvoiceDocumentReference',
            el('cbc:ID', doc.credited.number),
            el('cbc:IssueDate', doc.credited.date),
          ),
        )
      : '',
    wrap('cac:AccountingSupplierParty', supplierParty(doc)),
    wrap('cac:AccountingCustomerParty', customerParty(doc.customer)),
    doc.deliveryDate ? wrap('cac:Delivery', el('cbc:ActualDeliveryDate', doc.deliveryDate)) : '',
    paymentMeans(doc),
    doc.paymentTermDays !== null && !credit
      ? wrap('cac:PaymentTerms', el('cbc:Note', `Betaling binnen ${doc.paymentTermDays} dagen`))
      : '',
    wrap(
      'cac:TaxTotal',
      amount('cbc:TaxAmount', taxTotal, cur),
      ...vatRows.map((v) =>
        wrap(
          'cac:TaxSubtotal',
          amount('cbc:TaxableAmount', v.taxable, cur),
          amount('cbc:TaxAmount', v.vat, cur),
          taxCategory('cac:TaxCategory', v.category, v.rate, v.exemptionReason),
        ),
      ),
    ),
    wrap(
      'cac:LegalMonetaryTotal',
      amount('cbc:LineExtensionAmount', lineSum, cur),
      amount('cbc:TaxExclusiveAmount', lineSum, cur),
      amount('cbc:TaxInclusiveAmount', inclusive, cur),
      amount('cbc:PayableAmount', inclusive, cur),
    ),
    ...lines.map((l, i) => documentLine(l, i + 1, credit, cur, doc.reverseCharge)),
  ].join('');

  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<${root} xmlns="${NS[root]}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">${body}</${root}>\n`
  );
}

function supplierParty(doc: PrintableDocument): string {
  const c = doc.company;
  if (!c.cocNumber) throw new UblError('company KvK number (coc_number) is missing in aplt_cms_settings');
  if (!c.address || !c.city || !c.postalCode) {
    // NL-R-002: a Dutch supplier's address needs street, city and postal code.
    throw new UblError('company address, postal_code and city are required in aplt_cms_settings');
  }
  return wrap(
    'cac:Party',
    el('cbc:EndpointID', c.cocNumber, { schemeID: '0106' }),
    wrap('cac:PartyName', el('cbc:Name', c.name)),
    postalAddress(c.address, null, c.city, c.postalCode, c.country),
    c.vatNumber
      ? wrap(
          'cac:PartyTaxScheme',
          el('cbc:CompanyID', c.vatNumber),
          wrap('cac:TaxScheme', el('cbc:ID', 'VAT')),
        )
      : '',
    wrap(
      'cac:PartyLegalEntity',
      el('cbc:RegistrationName', c.name),
      el('cbc:CompanyID', c.cocNumber, { schemeID: '0106' }),
    ),
    wrap(
      'cac:Contact',
      el('cbc:Name', c.name),
      el('cbc:Telephone', c.phone),
      el('cbc:ElectronicMail', c.email),
    ),
  );
}

function customerParty(cu: CustomerBlock): string {
  const name = cu.company ?? cu.name;
  if (!name) throw new UblError('customer name is missing');
  return wrap(
    'cac:Party',
    buyerEndpoint(cu),
    wrap('cac:PartyName', el('cbc:Name', name)),
    postalAddress(cu.addressLines[0] ?? null, cu.addressLines[1] ?? null, cu.city, cu.postalCode, cu.country),
    cu.vatNumber
      ? wrap(
          'cac:PartyTaxScheme',
          el('cbc:CompanyID', cu.vatNumber),
          wrap('cac:TaxScheme', el('cbc:ID', 'VAT')),
        )
      : '',
    wrap(
      'cac:PartyLegalEntity',
      el('cbc:RegistrationName', name),
      cu.cocNumber && cu.country === 'NL' ? el('cbc:CompanyID', cu.cocNumber, { schemeID: '0106' }) : '',
    ),
    cu.name || cu.email
      ? wrap('cac:Contact', el('cbc:Name', cu.name), el('cbc:ElectronicMail', cu.email))
      : '',
  );
}

/** PEPPOL-EN16931-R010: the buyer needs an electronic address; the best one we know. */
function buyerEndpoint(cu: CustomerBlock): string {
  if (cu.cocNumber && cu.country === 'NL') return el('cbc:EndpointID', cu.cocNumber, { schemeID: '0106' });
  const vat = cu.vatNumber?.replace(/\s/g, '').toUpperCase();
  const vatSchemes: Record<string, string> = { NL: '9944', BE: '9925', DE: '9930', FR: '9957', AT: '9915' };
  if (vat && vatSchemes[vat.slice(0, 2)])
    return el('cbc:EndpointID', vat, { schemeID: vatSchemes[vat.slice(0, 2)]! });
  if (cu.email) return el('cbc:EndpointID', cu.email, { schemeID: 'EM' });
  throw new UblError('customer has no KvK number, VAT number or e-mail to address the e-invoice to');
}

function postalAddress(
  street: string | null,
  additional: string | null,
  city: string | null,
  postalCode: string | null,
  country: string,
): string {
  return wrap(
    'cac:PostalAddress',
    el('cbc:StreetName', street),
    el('cbc:AdditionalStreetName', additional),
    el('cbc:CityName', city),
    el('cbc:PostalZone', postalCode),
    wrap('cac:Country', el('cbc:IdentificationCode', country)),
  );
}

function paymentMeans(doc: PrintableDocument): string {
  // A credit note is paid back by us: our IBAN as payee account would be wrong there.
  if (doc.kind === 'credit_note' || !doc.company.iban) return '';
  return wrap(
    'cac:PaymentMeans',
    el('cbc:PaymentMeansCode', '58', { name: 'SEPA credit transfer' }),
    el('cbc:PaymentID', doc.number),
    wrap(
      'cac:PayeeFinancialAccount',
      el('cbc:ID', doc.company.iban.replace(/\s/g, '')),
      el('cbc:Name', doc.company.name),
      doc.company.bic ? wrap('cac:FinancialInstitutionBranch', el('cbc:ID', doc.company.bic)) : '',
    ),
  );
}

function taxCategory(name: string, category: string, rate: string, reason: string | null): string {
  const exemption = EXEMPTION[category];
  return wrap(
    name,
    el('cbc:ID', category),
    // Category O carries no rate (BR-O-05); every other category does.
    category === 'O' ? '' : el('cbc:Percent', percent(rate)),
    name === 'cac:TaxCategory' && exemption ? el('cbc:TaxExemptionReasonCode', exemption.code) : '',
    name === 'cac:TaxCategory' && exemption ? el('cbc:TaxExemptionReason', reason ?? exemption.text) : '',
    wrap('cac:TaxScheme', el('cbc:ID', 'VAT')),
  );
}

function documentLine(
  l: DocumentLine,
  id: number,
  credit: boolean,
  cur: string,
  reverseCharge: boolean,
): string {
  const total = new Decimal(l.lineTotal);
  // Prices are never negative (BR-27): a discount line is a negative quantity at a positive price.
  const negative = total.isNegative();
  const quantity = negative ? -l.quantity : l.quantity;
  const { price, baseQuantity } = netPrice(l, total.abs());
  const category =
    reverseCharge && l.vatCategory === 'S' && new Decimal(l.vatRate).isZero() ? 'AE' : l.vatCategory;
  const properties = [
    l.techniqueName ? ['Bedrukking', l.techniqueName] : null,
    l.printPosition ? ['Drukpositie', l.printPosition] : null,
    l.printColours ? ['Kleuren', String(l.printColours)] : null,
  ].filter((p): p is [string, string] => p !== null);
  return wrap(
    credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
    el('cbc:ID', id),
    el(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', quantity, { unitCode: UNIT_CODE }),
    amount('cbc:LineExtensionAmount', total, cur),
    wrap(
      'cac:Item',
      el('cbc:Name', (l.description ?? l.sku ?? `Regel ${id}`).split('\n')[0]!.slice(0, 200)),
      l.sku ? wrap('cac:SellersItemIdentification', el('cbc:ID', l.sku)) : '',
      taxCategory('cac:ClassifiedTaxCategory', category, l.vatRate, null),
      ...properties.map(([n, v]) =>
        wrap('cac:AdditionalItemProperty', el('cbc:Name', n), el('cbc:Value', v)),
      ),
    ),
    wrap(
      'cac:Price',
      el('cbc:PriceAmount', price, { currencyID: cur }),
      baseQuantity ? el('cbc:BaseQuantity', baseQuantity, { unitCode: UNIT_CODE }) : '',
    ),
  );
}

/**
 * Net unit price such that quantity x price = line amount (PEPPOL-EN16931-R120). The listed
 * price (product + print, less discount) is used when it multiplies out exactly; otherwise the
 * price is given for the whole quantity (base quantity), which is exact by construction.
 */
function netPrice(l: DocumentLine, absTotal: Decimal): { price: string; baseQuantity: number | null } {
  const unit = new Decimal(l.unitPrice)
    .plus(l.printUnitPrice)
    .times(new Decimal(100).minus(l.discountPercent))
    .dividedBy(100);
  if (
    unit.gte(0) &&
    unit.decimalPlaces() <= 4 &&
    unit.times(l.quantity).toDecimalPlaces(2).equals(absTotal)
  ) {
    return { price: unit.toString(), baseQuantity: null };
  }
  return { price: absTotal.toFixed(2), baseQuantity: l.quantity };
}

function fallbackVat(lines: DocumentLine[]): VatRow {
  const taxable = lines.reduce((s, l) => s.plus(l.lineTotal), new Decimal(0));
  return {
    category: 'S',
    rate: '21',
    taxable: taxable.toFixed(2),
    vat: taxable.times(0.21).toFixed(2),
    exemptionReason: null,
  };
}
