import type { Kysely } from 'kysely';
import type { ApltDatabase } from '@aplt/db';
import Decimal from 'decimal.js';
import type {
  CompanyData,
  CustomerBlock,
  DocumentKind,
  DocumentLine,
  Language,
  PrintableDocument,
  SetupCost,
  VatRow,
} from './document.model';
import type { ImageEmbedder } from './image-embed';
import * as repo from './output.repository';
import { jsonObject } from '../shared/json';
import { categoryForRate, exemptionReason, zeroRating } from '../shared/vat';

type Customer = NonNullable<Awaited<ReturnType<typeof repo.findCustomer>>>;
type Brand = NonNullable<Awaited<ReturnType<typeof repo.findBrand>>>;
type SetupRow = Awaited<ReturnType<typeof repo.findQuotationSetupCosts>>[number];
type VatSummaryRow = Awaited<ReturnType<typeof repo.findVatSummary>>[number];

const LANGUAGES: readonly Language[] = ['nl', 'en', 'de'];
const money = (v: unknown) => new Decimal((v as string | number | null) ?? 0).toFixed(2);

/** Loads one document with everything a PDF, an e-mail draft or a UBL file prints. */
export async function loadPrintableDocument(
  db: Kysely<ApltDatabase>,
  kind: DocumentKind,
  id: number,
  images: ImageEmbedder,
): Promise<PrintableDocument | undefined> {
  // Three round trips: what the id alone finds, then what the header and lines name, then the brand.
  const isInvoice = kind === 'invoice' || kind === 'credit_note';
  const [header, lineRows, vatRows] = await Promise.all([
    repo.findHeader(db, kind, id),
    repo.findLines(db, kind, id),
    isInvoice ? repo.findVatSummary(db, id) : Promise.resolve([]),
  ]);
  if (!header) return undefined;
  const [customer, setupRows] = await Promise.all([
    repo.findCustomer(db, header.customer_id ?? null),
    kind === 'quotation'
      ? repo.findQuotationSetupCosts(
          db,
          lineRows.map((l) => l.id),
        )
      : Promise.resolve([]),
  ]);
  const brandId = await repo.resolveBrandId(db, header.brand_id, customer?.brand_id);
  const [brand, settings] = await Promise.all([
    repo.findBrand(db, brandId),
    repo.findCmsSettings(db, brandId),
  ]);
  const language = documentLanguage(header.language, customer);
  const company = companyFromSettings(settings, brand);
  const lines = await Promise.all(
    lineRows.map((row) => toLine(row, setupRows, language, kind === 'quotation' ? images : null)),
  );
  // Quotations and orders store no zero-rating: the core decides it from the customer (reverse
  // charge, export) and then stores no VAT; read it the same way. An invoice keeps what it was
  // issued with, whatever the customer has become since.
  const rated = zeroRating(customer);
  const rating: 'AE' | 'G' | null = isInvoice
    ? header.reverse_charge === true
      ? 'AE'
      : vatRows.some((r) => r.vat_category === 'G')
        ? 'G'
        : null
    : rated && new Decimal(header.vat_total ?? 0).isZero()
      ? rated.category
      : null;
  const vat = isInvoice && vatRows.length > 0 ? vatRows.map(toVatRow) : computeVat(lines, header, rating);

  return {
    kind,
    proforma: header.document_type === 'proforma',
    id: header.id,
    // The kind names the table, and so which of these NOT NULL columns the header has.
    number:
      kind === 'quotation'
        ? header.quotation_number!
        : kind === 'order'
          ? header.order_number!
          : header.invoice_number!,
    date:
      kind === 'quotation'
        ? header.quotation_date!
        : kind === 'order'
          ? header.order_date!
          : header.issue_date!,
    language,
    currency: header.currency ?? 'EUR',
    reference: header.reference ?? null,
    title: header.title ?? null,
    validUntil: header.valid_until ?? null,
    dueDate: isInvoice ? (header.due_date ?? null) : null,
    deliveryDate: header.delivery_date ?? header.expected_delivery_date ?? null,
    paymentTermDays: isInvoice ? (header.payment_term_days ?? null) : (customer?.payment_term_days ?? null),
    paymentTermName: header[`term_name_${language}`] ?? header.term_name_nl ?? null,
    terms: header.terms ?? settings[`quotation_terms_${language}`] ?? settings.quotation_terms ?? null,
    notes: header.notes ?? null,
    orderNumber: kind === 'order' ? (header.quotation_number ?? null) : (header.order_number ?? null),
    // A credited number comes with its invoice's (NOT NULL) issue date.
    credited: header.credited_number ? { number: header.credited_number, date: header.credited_date! } : null,
    creditReason: header.credit_reason ?? null,
    zeroRating: rating,
    vatNote: header.vat_note ?? null,
    company,
    logo: await images.embed(company.logoUrl),
    customer: customerBlock(header, customer),
    lines,
    vat,
    totals: {
      subtotal: money(header.subtotal),
      setupCostTotal: money(header.setup_cost_total),
      discountTotal: money(header.discount_total),
      shippingCost: money(header.shipping_cost),
      vatTotal: money(header.vat_total),
      total: money(header.total),
    },
    pdfPath: header.pdf_path ?? null,
  };
}

/**
 * The header's language column defaults to 'nl' and so cannot tell "chosen Dutch" from "never
 * set"; a non-Dutch value is an explicit choice, otherwise the customer's preference decides.
 */
function documentLanguage(headerLanguage: string | null, customer: Customer | undefined): Language {
  const pick = (v: unknown) => (LANGUAGES.includes(v as Language) ? (v as Language) : undefined);
  if (headerLanguage && headerLanguage !== 'nl' && pick(headerLanguage)) return pick(headerLanguage)!;
  return pick(jsonObject(customer?.metadata).preferred_language) ?? pick(customer?.language) ?? 'nl';
}

function companyFromSettings(s: Record<string, string>, brand: Brand | undefined): CompanyData {
  return {
    name: s.company_name ?? brand?.name ?? '',
    address: s.address ?? null,
    postalCode: s.postal_code ?? null,
    city: s.city ?? null,
    country: (s.country ?? 'NL').toUpperCase(),
    cocNumber: s.coc_number ?? null,
    vatNumber: s.vat_number ?? null,
    iban: s.iban ?? null,
    bic: s.bic ?? null,
    email: s.email ?? null,
    phone: s.phone ?? null,
    website: s.website ?? brand?.domain ?? null,
    logoUrl: s.logo_url ?? brand?.logo_url ?? null,
  };
}

function customerBlock(header: repo.Header, customer: Customer | undefined): CustomerBlock {
  const billing = (header.billing_address ?? {}) as Record<string, string | undefined>;
  const fullName = [customer?.first_name, customer?.last_name].filter(Boolean).join(' ') || null;
  const addressLines = [
    billing.address_line1 ?? billing.address_1 ?? billing.street ?? customer?.address_line1,
    billing.address_line2 ?? billing.address_2 ?? customer?.address_line2,
  ].filter((l): l is string => Boolean(l));
  return {
    customerNumber: customer?.customer_number ?? null,
    company: header.customer_company ?? billing.company ?? customer?.company ?? null,
    name: header.customer_name ?? billing.name ?? fullName,
    email: header.customer_email ?? customer?.email ?? null,
    addressLines,
    postalCode: billing.postal_code ?? customer?.postal_code ?? null,
    city: billing.city ?? customer?.city ?? null,
    country: (header.customer_country ?? billing.country_code ?? billing.country ?? customer?.country ?? 'NL')
      .toString()
      .toUpperCase(),
    vatNumber: header.customer_vat_number ?? customer?.vat_number ?? null,
    cocNumber: customer?.coc_number ?? null,
  };
}

async function toLine(
  row: repo.Line,
  setupRows: SetupRow[],
  language: Language,
  images: ImageEmbedder | null,
): Promise<DocumentLine> {
  const productName = row[`product_name_${language}`] ?? row.product_name_nl ?? null;
  const setupCosts: SetupCost[] = setupRows
    .filter((s) => s.quotation_line_id === row.id)
    .map((s) => ({
      description: s.description,
      quantity: s.quantity,
      unitCost: money(s.unit_cost),
      total: money(s.total),
      vatRate: s.vat_rate,
    }));
  return {
    lineNo: row.line_no,
    lineType: row.line_type,
    sku: row.sku ?? null,
    description: row.description ?? productName,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    discountPercent: row.discount_percent ?? '0',
    techniqueName: row.technique_name ?? row.technique_code ?? null,
    printPosition: row.print_position ?? null,
    printArea: row.print_area ?? null,
    printColours: row.print_colours ?? null,
    printUnitPrice: row.print_unit_price ?? '0',
    vatRate: row.vat_rate,
    vatCategory: row.vat_category ?? 'S',
    lineTotal: money(row.line_total),
    image: images && row.line_type === 'product' ? await images.embed(row.catalog_image_url) : null,
    imageUrl: row.catalog_image_url ?? null,
    setupCosts,
  };
}

function toVatRow(r: VatSummaryRow): VatRow {
  return {
    category: r.vat_category,
    rate: r.vat_rate,
    taxable: money(r.taxable_amount),
    vat: money(r.vat_amount),
    exemptionReason: r.exemption_reason ?? null,
  };
}

/**
 * Quotations and orders have no stored VAT summary: group the taxable amounts by category and
 * rate and round the VAT once per group (EN 16931 BR-CO-17), never per line. Shipping is the
 * header's shipping cost at the standard rate; for a zero-rated customer everything is in its
 * category (AE, G) at 0%.
 */
function computeVat(lines: DocumentLine[], header: repo.Header, rating: 'AE' | 'G' | null): VatRow[] {
  const groups = new Map<string, { category: string; rate: string; taxable: Decimal }>();
  const add = (rate: Decimal.Value, amount: Decimal.Value) => {
    const r = rating ? '0.00' : new Decimal(rate).toFixed(2);
    const category = rating ?? categoryForRate(r);
    const key = `${category}|${r}`;
    const entry = groups.get(key) ?? { category, rate: r, taxable: new Decimal(0) };
    entry.taxable = entry.taxable.plus(amount);
    groups.set(key, entry);
  };
  for (const line of lines) {
    if (line.lineType === 'shipping') continue;
    add(line.vatRate, line.lineTotal);
    for (const s of line.setupCosts) add(s.vatRate, s.total);
  }
  const shipping = new Decimal(header.shipping_cost ?? 0);
  if (shipping.gt(0)) add(STANDARD_RATE, shipping);
  return [...groups.values()]
    .filter((g) => !g.taxable.isZero())
    .map((g) => ({
      category: g.category,
      rate: g.rate,
      taxable: g.taxable.toFixed(2),
      vat: g.taxable.times(g.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      exemptionReason: exemptionReason(g.category),
    }))
    .sort((a, b) => new Decimal(b.rate).comparedTo(a.rate));
}

const STANDARD_RATE = '21';
