import { D, type Decimal, round2, sum } from './money';

/** EU member states (ISO 3166 alpha-2; Greece as GR, its VAT prefix EL is normalised). */
const euCountries = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/** Our own VAT country: reverse charge applies only to B2B supplies to another member state. */
export const HOME_COUNTRY = 'NL';
export const REVERSE_CHARGE_NOTE = 'BTW verlegd';

/** A VAT number has the shape of its country prefix plus 2-12 alphanumerics (EL for Greece). */
export function vatNumberLooksValid(vatNumber: string | null | undefined, country: string): boolean {
  if (!vatNumber) return false;
  const v = vatNumber.replace(/[\s.-]/g, '').toUpperCase();
  const prefix = country === 'GR' ? 'EL' : country;
  return new RegExp(`^${prefix}[0-9A-Z]{2,12}$`).test(v);
}

/**
 * Supplies that are zero-rated for the whole document, decided by the customer:
 * - AE, intra-EU B2B reverse charge: another EU member state and a VAT number of that state; the
 *   customer accounts for the VAT and the invoice states "BTW verlegd";
 * - G, export outside the EU: a customer (business or private) in a country outside the EU.
 * Everyone else pays the line's own rate (S, or Z at 0%).
 */
export interface ZeroRating {
  category: 'AE' | 'G';
  /** The invoice's statement, also the VAT breakdown's exemption reason. */
  note: string;
}

export const EXPORT_NOTE = 'Export buiten de EU';

type VatCustomer = { country: string; vat_number: string | null } | null | undefined;

export function zeroRating(customer: VatCustomer): ZeroRating | null {
  if (!customer || !/^[A-Z]{2}$/.test(customer.country)) return null;
  if (customer.country === HOME_COUNTRY) return null;
  if (!euCountries.has(customer.country)) return { category: 'G', note: EXPORT_NOTE };
  return vatNumberLooksValid(customer.vat_number, customer.country)
    ? { category: 'AE', note: REVERSE_CHARGE_NOTE }
    : null;
}

export const isReverseCharge = (customer: VatCustomer): boolean => zeroRating(customer)?.category === 'AE';

/** A line's VAT: its own rate and category, or 0% in the document's zero-rated category. */
export function lineVat(
  rate: Decimal.Value,
  rating: ZeroRating | null,
): { vat_rate: string; vat_category: string } {
  return rating
    ? { vat_rate: '0.00', vat_category: rating.category }
    : { vat_rate: D(rate).toFixed(2), vat_category: categoryForRate(rate) };
}

/** The exemption reason a VAT breakdown row of this category carries (EN 16931 BR-AE-10, BR-G-10). */
export const exemptionReason = (category: string): string | null =>
  category === 'AE' ? REVERSE_CHARGE_NOTE : category === 'G' ? EXPORT_NOTE : null;

export interface VatLine {
  vat_rate: Decimal.Value;
  vat_category: string;
  line_total: Decimal.Value;
}

export interface VatSummaryRow {
  vat_category: string;
  vat_rate: string;
  taxable_amount: string;
  vat_amount: string;
}

/**
 * EN 16931 BR-CO-17: per VAT category and rate, VAT = round(sum of line amounts x rate / 100),
 * rounded ONCE per category, never per line. Rows come out sorted by rate (highest first).
 */
export function vatSummary(lines: VatLine[]): VatSummaryRow[] {
  const groups = new Map<string, { category: string; rate: Decimal; taxable: Decimal }>();
  for (const l of lines) {
    const rate = D(l.vat_rate);
    const key = `${l.vat_category}|${rate.toFixed(2)}`;
    const g = groups.get(key) ?? { category: l.vat_category, rate, taxable: D(0) };
    g.taxable = g.taxable.plus(l.line_total);
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => b.rate.comparedTo(a.rate) || a.category.localeCompare(b.category))
    .map((g) => ({
      vat_category: g.category,
      vat_rate: g.rate.toFixed(2),
      taxable_amount: round2(g.taxable).toFixed(2),
      vat_amount: round2(g.taxable.times(g.rate).dividedBy(100)).toFixed(2),
    }));
}

export const vatTotal = (rows: VatSummaryRow[]) => sum(rows.map((r) => r.vat_amount));
export const taxableTotal = (rows: VatSummaryRow[]) => sum(rows.map((r) => r.taxable_amount));

/** Category for a rate when the customer's supplies are not zero-rated: S for >0%, Z for 0%. */
export const categoryForRate = (rate: Decimal.Value) => (D(rate).isZero() ? 'Z' : 'S');
