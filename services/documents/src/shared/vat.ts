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
 * Intra-EU B2B reverse charge: the customer is in another EU member state and has a VAT number
 * of that state. Then VAT is 0% in category AE and the invoice states "BTW verlegd".
 */
export function isReverseCharge(customer: { country: string; vat_number: string | null } | null): boolean {
  if (!customer) return false;
  return (
    customer.country !== HOME_COUNTRY &&
    euCountries.has(customer.country) &&
    vatNumberLooksValid(customer.vat_number, customer.country)
  );
}

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

/** Category for a rate when the customer is not reverse-charged: S for >0%, Z for 0%. */
export const categoryForRate = (rate: Decimal.Value) => (D(rate).isZero() ? 'Z' : 'S');
