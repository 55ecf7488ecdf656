import type { ApltDatabase, Kysely } from '@aplt/db';
import { unprocessable } from '@aplt/http';
import type { Config } from '../config';
import { loadShippingRules, shippingCost } from '../settings/shipping.service';
import { D, type Decimal, money, round2, sum } from '../shared/money';
import { lineVat, type VatSummaryRow, vatSummary, type ZeroRating } from '../shared/vat';
import * as pricing from './pricing.repository';
import type { LineInput } from './quotation.schemas';

/** Dutch standard rate; lines without a VAT code of their own and shipping use it. */
export const STANDARD_VAT_RATE = '21.00';

export interface ResolvedSetupCost {
  opstartkosten_id: number | null;
  technique_id: number | null;
  description: string;
  quantity: number;
  unit_cost: string;
  total: string;
  vat_rate: string;
}

export interface ResolvedLine {
  line_type: LineInput['line_type'];
  product_id: number | null;
  sku: string | null;
  description: string | null;
  quantity: number;
  unit_price: string;
  discount_percent: string;
  technique_id: number | null;
  technique_code: string | null;
  technique_name: string | null;
  print_position: string | null;
  print_area: string | null;
  print_colours: number | null;
  print_unit_price: string;
  vat_rate: string;
  line_total: string;
  logo_transaction_id: string | null;
  metadata: Record<string, unknown>;
  setup_costs: ResolvedSetupCost[];
}

/**
 * Line amount excl. VAT: quantity x (unit price + print price) less the line discount, rounded
 * to cents once. Discount lines carry a negative amount.
 */
export function lineAmount(
  quantity: number,
  unitPrice: Decimal.Value,
  printUnitPrice: Decimal.Value,
  discountPercent: Decimal.Value,
): Decimal {
  const gross = D(unitPrice).plus(printUnitPrice).times(quantity);
  return round2(gross.times(D(100).minus(discountPercent)).dividedBy(100));
}

/** A print area "<width>x<height>" in mm as cm2 (the unit of aplt_technique_pricing's ranges). */
export function printAreaCm2(area: string | null | undefined): string | undefined {
  const m = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(area?.trim().toLowerCase() ?? '');
  return m ? D(m[1]!).times(m[2]!).dividedBy(100).toString() : undefined;
}

/**
 * Print price per unit of a scale row: its price, plus next_colour_price for each colour beyond
 * the first when the row is for any number of colours (suppliers price further colours so).
 */
export function techniqueUnitPrice(
  tp: { price_per_unit: Decimal.Value; next_colour_price: Decimal.Value | null; colours: number | null },
  colours: number | undefined,
): Decimal {
  const extra = tp.colours === null && tp.next_colour_price !== null ? Math.max(0, (colours ?? 1) - 1) : 0;
  return D(tp.price_per_unit).plus(D(tp.next_colour_price ?? 0).times(extra));
}

/** Resolves prices, techniques and setup costs of input lines against the catalog. */
export async function resolveLines(
  db: Kysely<ApltDatabase>,
  inputs: LineInput[],
  onDate: string,
): Promise<ResolvedLine[]> {
  const out: ResolvedLine[] = [];
  for (const [i, l] of inputs.entries()) {
    const where = `lines[${i}]`;
    let unitPrice = l.unit_price;
    let sku = l.sku ?? null;
    let description = l.description ?? null;
    let vatRate = l.vat_rate;
    if (l.product_id !== undefined) {
      const product = await pricing.findProduct(db, l.product_id);
      if (!product) throw unprocessable(`${where}: product ${l.product_id} does not exist`);
      sku ??= product.sku;
      description ??= product.name_nl;
      vatRate ??= product.vat_rate ?? undefined;
      if (unitPrice === undefined) {
        const tier = await pricing.findTierPrice(db, l.product_id, l.quantity, onDate);
        const price = tier?.price ?? product.retail_price_100;
        if (price == null)
          throw unprocessable(`${where}: product ${product.sku} has no price and is not sellable`);
        unitPrice = String(price);
      }
    }
    if (unitPrice === undefined) {
      if (l.line_type === 'text') unitPrice = '0';
      else throw unprocessable(`${where}: unit_price is required without a product`);
    }
    if (l.line_type !== 'discount' && D(unitPrice).isNegative())
      throw unprocessable(`${where}: unit_price must not be negative`);
    if (l.line_type === 'discount' && D(unitPrice).isPositive())
      unitPrice = D(unitPrice).negated().toString();

    let techniqueCode: string | null = null;
    let techniqueName: string | null = null;
    let printUnitPrice = l.print_unit_price ?? '0';
    const setupCosts: ResolvedSetupCost[] = [];
    if (l.technique_id !== undefined) {
      const technique = await pricing.findTechnique(db, l.technique_id);
      if (!technique) throw unprocessable(`${where}: technique ${l.technique_id} does not exist`);
      techniqueCode = technique.code;
      techniqueName = technique.name_nl;
      if (l.print_unit_price === undefined) {
        const tp = await pricing.findTechniquePrice(
          db,
          l.technique_id,
          l.quantity,
          l.print_colours,
          printAreaCm2(l.print_area),
        );
        if (tp) printUnitPrice = techniqueUnitPrice(tp, l.print_colours).toString();
      }
      if (l.setup_costs === undefined) {
        const ok = await pricing.findOpstartkosten(db, l.technique_id, l.product_id);
        if (ok) {
          const qty = ok.per_colour ? Math.max(1, l.print_colours ?? 1) : 1;
          setupCosts.push(
            setup(
              ok.id,
              l.technique_id,
              ok.description ?? `Opstartkosten ${technique.name_nl}`,
              qty,
              String(ok.setup_cost),
              vatRate,
            ),
          );
        }
      }
    }
    for (const [j, s] of (l.setup_costs ?? []).entries()) {
      let unitCost = s.unit_cost;
      let desc = s.description;
      if (s.opstartkosten_id !== undefined) {
        const ok = await pricing.findOpstartkostenById(db, s.opstartkosten_id);
        if (!ok)
          throw unprocessable(
            `${where}.setup_costs[${j}]: opstartkosten ${s.opstartkosten_id} does not exist`,
          );
        unitCost ??= String(ok.setup_cost);
        desc ??= ok.description ?? 'Opstartkosten';
      }
      if (unitCost === undefined)
        throw unprocessable(`${where}.setup_costs[${j}]: unit_cost or opstartkosten_id is required`);
      if (D(unitCost).isNegative())
        throw unprocessable(`${where}.setup_costs[${j}]: unit_cost must not be negative`);
      setupCosts.push(
        setup(
          s.opstartkosten_id ?? null,
          s.technique_id ?? l.technique_id ?? null,
          desc ?? 'Opstartkosten',
          s.quantity,
          unitCost,
          s.vat_rate ?? vatRate,
        ),
      );
    }
    const discount = l.discount_percent ?? '0';
    out.push({
      line_type: l.line_type,
      product_id: l.product_id ?? null,
      sku,
      description,
      quantity: l.quantity,
      unit_price: D(unitPrice).toFixed(4),
      discount_percent: D(discount).toFixed(2),
      technique_id: l.technique_id ?? null,
      technique_code: techniqueCode,
      technique_name: techniqueName,
      print_position: l.print_position ?? null,
      print_area: l.print_area ?? null,
      print_colours: l.print_colours ?? null,
      print_unit_price: D(printUnitPrice).toFixed(4),
      vat_rate: D(vatRate ?? STANDARD_VAT_RATE).toFixed(2),
      line_total: money(lineAmount(l.quantity, unitPrice, printUnitPrice, discount)),
      logo_transaction_id: l.logo_transaction_id ?? null,
      metadata: l.metadata ?? {},
      setup_costs: setupCosts,
    });
  }
  return out;
}

function setup(
  opstartkostenId: number | string | null,
  techniqueId: number | null,
  description: string,
  quantity: number,
  unitCost: string,
  vatRate: string | undefined,
): ResolvedSetupCost {
  return {
    opstartkosten_id: opstartkostenId === null ? null : Number(opstartkostenId),
    technique_id: techniqueId,
    description,
    quantity,
    unit_cost: D(unitCost).toFixed(4),
    total: money(D(unitCost).times(quantity)),
    vat_rate: D(vatRate ?? STANDARD_VAT_RATE).toFixed(2),
  };
}

export interface DocumentTotals {
  subtotal: string;
  setup_cost_total: string;
  discount_total: string;
  shipping_cost: string;
  vat_total: string;
  total: string;
  vat_summary: VatSummaryRow[];
}

/** A line as the totals see it (quotation/order lines and setup costs alike). */
export interface AmountLine {
  line_type: string;
  line_total: Decimal.Value;
  vat_rate: Decimal.Value;
  quantity: number;
}

/**
 * Header totals of a quotation or order. VAT per category on the category's sum (BR-CO-17);
 * for a zero-rated customer (reverse charge, export) every amount is in that category at 0%. Shipping follows the franco rule
 * unless the caller fixed it.
 */
export async function computeTotals(
  db: Kysely<ApltDatabase>,
  config: Config,
  lines: AmountLine[],
  opts: { zeroRating: ZeroRating | null; shippingOverride?: string | null },
): Promise<DocumentTotals> {
  const kind = (t: string) => lines.filter((l) => l.line_type === t);
  const goodsLines = lines.filter((l) => !['setup', 'discount', 'shipping'].includes(l.line_type));
  const subtotal = sum(goodsLines.map((l) => l.line_total));
  const setupTotal = sum(kind('setup').map((l) => l.line_total));
  const discountTotal = sum(kind('discount').map((l) => l.line_total)).abs();
  const explicitShipping = kind('shipping');
  let shipping: Decimal;
  if (opts.shippingOverride != null) shipping = D(opts.shippingOverride);
  else if (explicitShipping.length) shipping = sum(explicitShipping.map((l) => l.line_total));
  else {
    const rules = await loadShippingRules(db, config);
    const units = kind('product').reduce((n, l) => n + l.quantity, 0);
    shipping = shippingCost(rules, subtotal.plus(setupTotal).minus(discountTotal), units);
  }
  const vatLines = lines
    .filter((l) => l.line_type !== 'shipping')
    .map((l) => ({ line_total: l.line_total, vat_rate: l.vat_rate }));
  if (shipping.gt(0)) vatLines.push({ line_total: shipping, vat_rate: STANDARD_VAT_RATE });
  const summary = vatSummary(
    vatLines.map((l) => ({ line_total: l.line_total, ...lineVat(l.vat_rate, opts.zeroRating) })),
  );
  const vat = sum(summary.map((r) => r.vat_amount));
  const net = subtotal.plus(setupTotal).minus(discountTotal).plus(shipping);
  if (net.isNegative()) throw unprocessable('The discount exceeds the document amount');
  return {
    subtotal: money(subtotal),
    setup_cost_total: money(setupTotal),
    discount_total: money(discountTotal),
    shipping_cost: money(shipping),
    vat_total: money(vat),
    total: money(net.plus(vat)),
    vat_summary: summary,
  };
}

/** Quotation lines plus their setup costs, flattened for the totals. */
export function quotationAmountLines(lines: ResolvedLine[]): AmountLine[] {
  return lines.flatMap((l) => [
    { line_type: l.line_type, line_total: l.line_total, vat_rate: l.vat_rate, quantity: l.quantity },
    ...l.setup_costs.map((s) => ({
      line_type: 'setup',
      line_total: s.total,
      vat_rate: s.vat_rate,
      quantity: s.quantity,
    })),
  ]);
}
