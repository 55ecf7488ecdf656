/** The printable view of a quotation, order, invoice or credit note, shared by PDF, .eml and UBL. */

export type DocumentKind = 'quotation' | 'order' | 'invoice' | 'credit_note';
export type Language = 'nl' | 'en' | 'de';

export interface CompanyData {
  name: string;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  country: string;
  cocNumber: string | null;
  vatNumber: string | null;
  iban: string | null;
  bic: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  logoUrl: string | null;
}

export interface CustomerBlock {
  customerNumber: string | null;
  company: string | null;
  name: string | null;
  email: string | null;
  addressLines: string[];
  postalCode: string | null;
  city: string | null;
  country: string;
  vatNumber: string | null;
  cocNumber: string | null;
}

export interface SetupCost {
  description: string;
  quantity: number;
  unitCost: string;
  total: string;
  vatRate: string;
}

export interface DocumentLine {
  lineNo: number;
  lineType: string;
  sku: string | null;
  description: string | null;
  quantity: number;
  unitPrice: string;
  discountPercent: string;
  techniqueName: string | null;
  printPosition: string | null;
  printArea: string | null;
  printColours: number | null;
  printUnitPrice: string;
  vatRate: string;
  vatCategory: string;
  lineTotal: string;
  /** Catalog image as a data: URI (quotations only), so the PDF renders offline. */
  image: string | null;
  imageUrl: string | null;
  setupCosts: SetupCost[];
}

export interface VatRow {
  category: string;
  rate: string;
  taxable: string;
  vat: string;
  exemptionReason: string | null;
}

export interface DocumentTotals {
  subtotal: string;
  setupCostTotal: string;
  discountTotal: string;
  shippingCost: string;
  vatTotal: string;
  total: string;
}

export interface PrintableDocument {
  kind: DocumentKind;
  /** A proforma is served by the invoice routes but is no tax document (title, no UBL). */
  proforma: boolean;
  id: number;
  number: string;
  /** Calendar day the document was issued (YYYY-MM-DD). */
  date: string;
  language: Language;
  currency: string;
  reference: string | null;
  title: string | null;
  validUntil: string | null;
  dueDate: string | null;
  deliveryDate: string | null;
  paymentTermDays: number | null;
  paymentTermName: string | null;
  terms: string | null;
  notes: string | null;
  orderNumber: string | null;
  credited: { number: string; date: string } | null;
  creditReason: string | null;
  /** AE (reverse charge) or G (export outside the EU): every amount is zero-rated in it. */
  zeroRating: 'AE' | 'G' | null;
  vatNote: string | null;
  company: CompanyData;
  /** Company logo as a data: URI, or null. */
  logo: string | null;
  customer: CustomerBlock;
  lines: DocumentLine[];
  vat: VatRow[];
  totals: DocumentTotals;
  /** Stored PDF of an issued invoice or credit note (relative to the document store). */
  pdfPath: string | null;
}
