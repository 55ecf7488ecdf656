import Decimal from 'decimal.js';
import type * as XmlBuilder2 from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { CustomerBlock, DocumentLine, PrintableDocument, VatRow } from './document.model';

/**
 * UBL 2.1 Invoice / CreditNote following Peppol BIS Billing 3.0 (EN 16931 CIUS) with the Dutch
 * NLCIUS specifics: the supplier is identified by its KvK number (scheme 0106) as legal entity
 * and endpoint, its BTW number as VAT id, payment by SEPA credit transfer (code 58) to its IBAN,
 * and reverse-charged supplies in category AE with exemption reason "BTW verlegd".
 *
 * The XML is written with xmlbuilder2, which escapes markup characters; text that XML 1.0 cannot
 * carry is cleaned first by xmlText (see there). The order of the children is UBL 2.1's
 * xs:sequence order: the official schema rejects any other.
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

/**
 * XML 1.0 allows tab, LF, CR and U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF, nothing else.
 * A C0 control character (U+0000, U+0001 ...) and the non-characters U+FFFE/U+FFFF have no
 * visible form and cannot be escaped either (&#1; is not well-formed in XML 1.0): they are
 * dropped. A lone surrogate (half of a broken UTF-16 pair) becomes U+FFFD, what any UTF-8
 * encoder writes for it, so the PDF, the database and the e-invoice show the same replacement.
 */
const INVALID_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- matching the control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const replaceInvalid = (char: string) => (/^[\uD800-\uDFFF]$/.test(char) ? '\uFFFD' : '');

/** The text of a value as XML 1.0 can carry it, trimmed; '' means "leave the element out". */
export function xmlText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(INVALID_XML_CHAR, replaceInvalid).trim();
}

type Node = XMLBuilder;
type Attrs = Record<string, string>;

/** A basic component (cbc:...) with text; left out when the text is empty (PEPPOL-EN16931-R008). */
function leaf(parent: Node, name: string, value: unknown, attrs: Attrs = {}): void {
  const text = xmlText(value);
  if (text === '') return;
  const node = parent.ele(NS.cbc, `cbc:${name}`);
  for (const [key, attr] of Object.entries(attrs)) node.att(key, xmlText(attr));
  node.txt(text);
}

/** An aggregate (cac:...) filled by fill; left out when it ends up without children. */
function group(parent: Node, name: string, fill: (node: Node) => void): void {
  const node = parent.ele(NS.cac, `cac:${name}`);
  fill(node);
  if (!node.node.hasChildNodes()) node.remove();
}

const amount = (parent: Node, name: string, value: Decimal.Value, currency: string) =>
  leaf(parent, name, new Decimal(value).toFixed(2), { currencyID: currency });
const percent = (rate: string) => new Decimal(rate).toString();

// Loaded at the first e-invoice, not at start-up: most processes never write one, and the
// library's modules are 7 MB of a service's resident memory.
let xmlbuilder: Promise<typeof XmlBuilder2> | undefined;

/** Builds the UBL XML of an invoice or credit note (proformas are not tax documents: refused). */
export async function buildUbl(doc: PrintableDocument): Promise<string> {
  if (doc.kind !== 'invoice' && doc.kind !== 'credit_note')
    throw new UblError('only invoices and credit notes');
  if (doc.proforma) throw new UblError('a proforma is not a tax document and has no e-invoice');
  const credit = doc.kind === 'credit_note';
  const rootName = credit ? 'CreditNote' : 'Invoice';
  const cur = doc.currency;
  const lines = doc.lines.filter((l) => l.lineType !== 'text');
  const lineSum = lines.reduce((sum, l) => sum.plus(l.lineTotal), new Decimal(0));
  const vatRows = doc.vat.length > 0 ? doc.vat : [fallbackVat(lines)];
  const taxTotal = vatRows.reduce((sum, v) => sum.plus(v.vat), new Decimal(0));
  const inclusive = lineSum.plus(taxTotal);
  // PEPPOL-EN16931-R002: one document-level note at most, so the VAT note and the reason share it.
  const note = [
    doc.zeroRating === 'AE' ? `BTW verlegd${doc.vatNote ? ` - ${doc.vatNote}` : ''}` : doc.vatNote,
    credit ? doc.creditReason : null,
  ]
    .map(xmlText)
    .filter((n) => n !== '')
    .join('\n');
  // Checked before anything is written, so a refusal names the cause and not a half document.
  const supplier = supplierParty(doc);
  const customer = customerParty(doc.customer, doc.company.country);

  const { create } = await (xmlbuilder ??= import('xmlbuilder2'));
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: replaceInvalid })
    .ele(NS[rootName], rootName)
    .att('xmlns:cac', NS.cac)
    .att('xmlns:cbc', NS.cbc);
  leaf(root, 'CustomizationID', PEPPOL_CUSTOMIZATION);
  leaf(root, 'ProfileID', PEPPOL_PROFILE);
  leaf(root, 'ID', doc.number);
  leaf(root, 'IssueDate', doc.date);
  if (credit) {
    leaf(root, 'CreditNoteTypeCode', '381');
  } else {
    leaf(root, 'DueDate', doc.dueDate);
    leaf(root, 'InvoiceTypeCode', '380');
  }
  leaf(root, 'Note', note);
  leaf(root, 'DocumentCurrencyCode', cur);
  // PEPPOL-EN16931-R003: a buyer reference or an order reference must be present.
  leaf(
    root,
    'BuyerReference',
    [doc.reference, doc.customer.customerNumber, doc.number].find((v) => xmlText(v) !== ''),
  );
  group(root, 'OrderReference', (n) => leaf(n, 'ID', doc.orderNumber));
  if (credit && doc.credited) {
    const credited = doc.credited;
    group(root, 'BillingReference', (n) =>
      group(n, 'InvoiceDocumentReference', (r) => {
        leaf(r, 'ID', credited.number);
        leaf(r, 'IssueDate', credited.date);
      }),
    );
  }
  group(root, 'AccountingSupplierParty', supplier);
  group(root, 'AccountingCustomerParty', customer);
  group(root, 'Delivery', (n) => leaf(n, 'ActualDeliveryDate', doc.deliveryDate));
  paymentMeans(root, doc);
  if (doc.paymentTermDays !== null && !credit) {
    group(root, 'PaymentTerms', (n) => leaf(n, 'Note', `Betaling binnen ${doc.paymentTermDays} dagen`));
  }
  group(root, 'TaxTotal', (t) => {
    amount(t, 'TaxAmount', taxTotal, cur);
    for (const v of vatRows) {
      group(t, 'TaxSubtotal', (s) => {
        amount(s, 'TaxableAmount', v.taxable, cur);
        amount(s, 'TaxAmount', v.vat, cur);
        taxCategory(s, 'TaxCategory', v.category, v.rate, v.exemptionReason);
      });
    }
  });
  group(root, 'LegalMonetaryTotal', (m) => {
    amount(m, 'LineExtensionAmount', lineSum, cur);
    amount(m, 'TaxExclusiveAmount', lineSum, cur);
    amount(m, 'TaxInclusiveAmount', inclusive, cur);
    amount(m, 'PayableAmount', inclusive, cur);
  });
  lines.forEach((l, i) => documentLine(root, l, i + 1, credit, cur, doc.zeroRating === 'AE'));
  return `${root.end({ prettyPrint: false })}\n`;
}

function supplierParty(doc: PrintableDocument): (party: Node) => void {
  const c = doc.company;
  if (!xmlText(c.cocNumber)) {
    throw new UblError('company KvK number (coc_number) is missing in aplt_cms_settings');
  }
  if (!xmlText(c.address) || !xmlText(c.city) || !xmlText(c.postalCode)) {
    // NL-R-002: a Dutch supplier's address needs street, city and postal code.
    throw new UblError('company address, postal_code and city are required in aplt_cms_settings');
  }
  if (!xmlText(c.name)) throw new UblError('company name (company_name) is missing in aplt_cms_settings');
  return (root) =>
    group(root, 'Party', (p) => {
      leaf(p, 'EndpointID', c.cocNumber, { schemeID: '0106' });
      group(p, 'PartyName', (n) => leaf(n, 'Name', c.name));
      postalAddress(p, c.address, null, c.city, c.postalCode, c.country);
      if (xmlText(c.vatNumber)) vatScheme(p, c.vatNumber);
      group(p, 'PartyLegalEntity', (e) => {
        leaf(e, 'RegistrationName', c.name);
        leaf(e, 'CompanyID', c.cocNumber, { schemeID: '0106' });
      });
      group(p, 'Contact', (n) => {
        leaf(n, 'Name', c.name);
        leaf(n, 'Telephone', c.phone);
        leaf(n, 'ElectronicMail', c.email);
      });
    });
}

function customerParty(cu: CustomerBlock, supplierCountry: string): (party: Node) => void {
  const name = xmlText(cu.company) || xmlText(cu.name);
  if (!name) throw new UblError('customer name is missing');
  if (
    supplierCountry === 'NL' &&
    cu.country === 'NL' &&
    (!xmlText(cu.addressLines[0]) || !xmlText(cu.city) || !xmlText(cu.postalCode))
  ) {
    // NL-R-004: between two Dutch parties the customer's street, city and postal code are required.
    throw new UblError("the customer's street, postal code and city are required for a Dutch customer");
  }
  const endpoint = buyerEndpoint(cu);
  return (root) =>
    group(root, 'Party', (p) => {
      leaf(p, 'EndpointID', endpoint.id, { schemeID: endpoint.scheme });
      group(p, 'PartyName', (n) => leaf(n, 'Name', name));
      postalAddress(
        p,
        cu.addressLines[0] ?? null,
        cu.addressLines[1] ?? null,
        cu.city,
        cu.postalCode,
        cu.country,
      );
      if (xmlText(cu.vatNumber)) vatScheme(p, cu.vatNumber);
      group(p, 'PartyLegalEntity', (e) => {
        leaf(e, 'RegistrationName', name);
        if (cu.country === 'NL') leaf(e, 'CompanyID', cu.cocNumber, { schemeID: '0106' });
      });
      group(p, 'Contact', (n) => {
        leaf(n, 'Name', cu.name);
        leaf(n, 'ElectronicMail', cu.email);
      });
    });
}

function vatScheme(party: Node, vatNumber: string | null): void {
  group(party, 'PartyTaxScheme', (s) => {
    leaf(s, 'CompanyID', vatNumber);
    group(s, 'TaxScheme', (t) => leaf(t, 'ID', 'VAT'));
  });
}

/**
 * Peppol EAS codes (code list PEPPOL-EN16931-CL008) of the VAT numbers, by VAT prefix. Austria's
 * UID number is 9914 (9915 is its public-sector organisation number); Greece's prefix is EL.
 */
const VAT_SCHEMES: Record<string, string> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  EL: '9933',
  ES: '9920',
  FI: '0213',
  FR: '9957',
  GB: '9932',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '0211',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SI: '9949',
  SK: '9950',
};

/**
 * PEPPOL-EN16931-R010: the buyer needs an electronic address with a scheme of the Peppol code
 * list: the KvK number of a Dutch customer, else its VAT number. An e-mail address is no such
 * scheme (EM left the list), so a customer with neither gets no e-invoice: a clear refusal
 * instead of a document every access point rejects.
 */
function buyerEndpoint(cu: CustomerBlock): { id: string; scheme: string } {
  const coc = xmlText(cu.cocNumber);
  if (coc && cu.country === 'NL') return { id: coc, scheme: '0106' };
  const vat = xmlText(cu.vatNumber)
    .replace(/[\s.-]/g, '')
    .toUpperCase();
  const vatScheme = VAT_SCHEMES[vat.slice(0, 2)];
  if (vat && vatScheme) return { id: vat, scheme: vatScheme };
  throw new UblError(
    'customer has no KvK number or VAT number (of a country with a Peppol scheme) to address the e-invoice to',
  );
}

function postalAddress(
  party: Node,
  street: string | null,
  additional: string | null,
  city: string | null,
  postalCode: string | null,
  country: string,
): void {
  group(party, 'PostalAddress', (a) => {
    leaf(a, 'StreetName', street);
    leaf(a, 'AdditionalStreetName', additional);
    leaf(a, 'CityName', city);
    leaf(a, 'PostalZone', postalCode);
    group(a, 'Country', (c) => leaf(c, 'IdentificationCode', country));
  });
}

function paymentMeans(root: Node, doc: PrintableDocument): void {
  // A credit note is paid back by us: our IBAN as payee account would be wrong there.
  const iban = xmlText(doc.company.iban).replace(/\s/g, '');
  if (doc.kind === 'credit_note' || !iban) return;
  group(root, 'PaymentMeans', (m) => {
    leaf(m, 'PaymentMeansCode', '58', { name: 'SEPA credit transfer' });
    leaf(m, 'PaymentID', doc.number);
    group(m, 'PayeeFinancialAccount', (a) => {
      leaf(a, 'ID', iban);
      leaf(a, 'Name', doc.company.name);
      group(a, 'FinancialInstitutionBranch', (b) => leaf(b, 'ID', doc.company.bic));
    });
  });
}

function taxCategory(
  parent: Node,
  name: 'TaxCategory' | 'ClassifiedTaxCategory',
  category: string,
  rate: string,
  reason: string | null,
): void {
  const exemption = name === 'TaxCategory' ? EXEMPTION[category] : undefined;
  group(parent, name, (c) => {
    leaf(c, 'ID', category);
    // Category O carries no rate (BR-O-05); every other category does.
    if (category !== 'O') leaf(c, 'Percent', percent(rate));
    if (exemption) {
      leaf(c, 'TaxExemptionReasonCode', exemption.code);
      leaf(c, 'TaxExemptionReason', xmlText(reason) || exemption.text);
    }
    group(c, 'TaxScheme', (s) => leaf(s, 'ID', 'VAT'));
  });
}

function documentLine(
  root: Node,
  l: DocumentLine,
  id: number,
  credit: boolean,
  cur: string,
  reverseCharge: boolean,
): void {
  const total = new Decimal(l.lineTotal);
  // Prices are never negative (BR-27): a discount line is a negative quantity at a positive price.
  const negative = total.isNegative();
  const quantity = negative ? -l.quantity : l.quantity;
  const { price, baseQuantity } = netPrice(l, total.abs());
  const category =
    reverseCharge && l.vatCategory === 'S' && new Decimal(l.vatRate).isZero() ? 'AE' : l.vatCategory;
  const properties = [
    ['Bedrukking', l.techniqueName],
    ['Drukpositie', l.printPosition],
    ['Kleuren', l.printColours ? String(l.printColours) : null],
  ].filter(([, value]) => xmlText(value) !== '');
  // BT-153: the item name, the first line of the description, at most 200 characters.
  const itemName = [l.description?.split('\n')[0], l.sku, `Regel ${id}`]
    .map((v) => xmlText(v).slice(0, 200).trim())
    .find((v) => v !== '');
  group(root, credit ? 'CreditNoteLine' : 'InvoiceLine', (n) => {
    leaf(n, 'ID', id);
    leaf(n, credit ? 'CreditedQuantity' : 'InvoicedQuantity', quantity, { unitCode: UNIT_CODE });
    amount(n, 'LineExtensionAmount', total, cur);
    group(n, 'Item', (item) => {
      leaf(item, 'Name', itemName);
      group(item, 'SellersItemIdentification', (s) => leaf(s, 'ID', l.sku));
      taxCategory(item, 'ClassifiedTaxCategory', category, l.vatRate, null);
      for (const [key, value] of properties) {
        group(item, 'AdditionalItemProperty', (p) => {
          leaf(p, 'Name', key);
          leaf(p, 'Value', value);
        });
      }
    });
    group(n, 'Price', (p) => {
      leaf(p, 'PriceAmount', price, { currencyID: cur });
      if (baseQuantity) leaf(p, 'BaseQuantity', baseQuantity, { unitCode: UNIT_CODE });
    });
  });
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
