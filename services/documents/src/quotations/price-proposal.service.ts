import type { ApltDatabase, Kysely } from '@aplt/db';
import { unprocessable } from '@aplt/http';
import type { Config } from '../config';
import { loadShippingRules, shippingCost } from '../settings/shipping.service';
import { today } from '../shared/context';
import { findCustomer } from '../shared/customer.repository';
import { D, money, round2, sum } from '../shared/money';
import { lineVat, zeroRating } from '../shared/vat';
import type { PriceProposalInput } from './price-proposal.schemas';
import * as pricing from './pricing.repository';
import { resolveLines } from './pricing.service';
import type { LineInput } from './quotation.schemas';

/**
 * The price the service proposes for one line, computed by the same code that prices a line
 * when a quotation is saved (resolveLines): the editor shows it, and saving the returned `line`
 * stores exactly these amounts. Franco uses the rest of the quotation as the caller reports it.
 */
export async function proposePrice(db: Kysely<ApltDatabase>, config: Config, input: PriceProposalInput) {
  const date = input.date ?? today();
  // Product (and variant) from the SKU or the id.
  let productId = input.product_id;
  let variant: { id: number; sku: string; colour: string | null } | null = null;
  if (input.sku !== undefined) {
    const hit = await pricing.findSku(db, input.sku);
    if (!hit) throw unprocessable(`sku ${input.sku} is no product or variant`, { field: 'sku' });
    if (productId !== undefined && productId !== hit.product_id)
      throw unprocessable(`sku ${input.sku} is not a SKU of product ${productId}`, { field: 'sku' });
    productId = hit.product_id;
    // variant_id is a foreign key: the variant (and its NOT NULL sku) is there.
    if (hit.variant_id !== null)
      variant = { id: hit.variant_id, sku: hit.variant_sku!, colour: hit.color_name };
  }
  const product = await pricing.findProduct(db, productId!);
  if (!product) throw unprocessable(`product ${productId} does not exist`, { field: 'product_id' });

  // Technique, position and what the catalog allows for this product.
  let techniqueId = input.technique_id;
  if (input.technique_code !== undefined) {
    const t = await pricing.findTechniqueByCode(db, input.technique_code);
    if (!t)
      throw unprocessable(`technique ${input.technique_code} does not exist`, { field: 'technique_code' });
    techniqueId = t.id;
  }
  const technique =
    techniqueId === undefined ? undefined : await pricing.findTechniqueDetails(db, techniqueId);
  if (techniqueId !== undefined && !technique)
    throw unprocessable(`technique ${techniqueId} does not exist`, { field: 'technique_id' });
  const wantsPosition = input.print_position_id !== undefined || input.print_position !== undefined;
  const position = wantsPosition
    ? await pricing.findPrintPosition(db, product.id, {
        ...(input.print_position_id !== undefined ? { id: input.print_position_id } : {}),
        ...(input.print_position !== undefined ? { code: input.print_position } : {}),
      })
    : undefined;
  if (wantsPosition && !position)
    throw unprocessable(`product ${product.sku} has no such print position`, { field: 'print_position' });

  let printArea = input.print_area ?? null;
  let maxColours: number | null = technique?.max_colours ?? null;
  if (technique) {
    const links = await pricing.productTechniqueLinks(db, product.id);
    // A product whose print data lists techniques offers only those (at those positions).
    if (links.length > 0) {
      const link = links.find(
        (l) => l.technique_id === technique.id && (!position || l.print_position_id === position.id),
      );
      if (!link)
        throw unprocessable(
          `technique ${technique.code} is not offered for product ${product.sku}${position ? ` at ${position.position_code}` : ''}`,
          { field: 'technique_id' },
        );
      if (link.max_colours !== null) maxColours = link.max_colours;
      if (position && !printArea) printArea = link.print_area ?? position.print_area ?? null;
    }
    if (maxColours !== null && maxColours > 0 && (input.print_colours ?? 1) > maxColours)
      throw unprocessable(`technique ${technique.code} prints at most ${maxColours} colours here`, {
        field: 'print_colours',
      });
  }
  if (position && !printArea) printArea = position.print_area ?? null;

  const line: LineInput = {
    line_type: 'product',
    product_id: product.id,
    sku: variant?.sku ?? product.sku,
    quantity: input.quantity,
    ...(input.unit_price !== undefined ? { unit_price: input.unit_price } : {}),
    ...(input.discount_percent !== undefined ? { discount_percent: input.discount_percent } : {}),
    ...(technique ? { technique_id: technique.id } : {}),
    ...(position ? { print_position: position.position_code } : {}),
    ...(printArea ? { print_area: printArea } : {}),
    ...(input.print_colours !== undefined ? { print_colours: input.print_colours } : {}),
    ...(input.print_unit_price !== undefined ? { print_unit_price: input.print_unit_price } : {}),
  };
  const [resolved] = await resolveLines(db, [line], date);
  const r = resolved!;

  const customer = input.customer_id === undefined ? null : await findCustomer(db, input.customer_id);
  if (input.customer_id !== undefined && !customer)
    throw unprocessable(`customer ${input.customer_id} does not exist`, { field: 'customer_id' });
  const rating = zeroRating(customer);
  const vat = lineVat(r.vat_rate, rating);
  const setupTotal = sum(r.setup_costs.map((s) => s.total));
  const withSetup = D(r.line_total).plus(setupTotal);

  const unitSource =
    input.unit_price !== undefined
      ? ('given' as const)
      : (await pricing.findTierPrice(db, product.id, input.quantity, date))
        ? ('scale' as const)
        : ('retail_price_100' as const);
  const printSource =
    input.print_unit_price !== undefined
      ? ('given' as const)
      : technique && D(r.print_unit_price).gt(0)
        ? ('technique_pricing' as const)
        : ('none' as const);

  const rules = await loadShippingRules(db, config);
  const goods = D(input.other_goods_value ?? 0).plus(withSetup);
  const shipping = shippingCost(rules, goods, (input.other_units ?? 0) + input.quantity);
  const free = goods.gt(rules.francoLimit);

  return {
    product: {
      id: product.id,
      sku: product.sku,
      name: product.name_nl,
      variant_id: variant?.id ?? null,
      variant_sku: variant?.sku ?? null,
      colour: variant?.colour ?? null,
    },
    technique: technique
      ? {
          id: technique.id,
          code: technique.code,
          name: technique.name_nl,
          pricing_type: technique.pricing_type,
          max_colours: maxColours,
        }
      : null,
    print_position: position
      ? {
          id: position.id,
          code: position.position_code,
          name: position.position_name,
          print_area: position.print_area,
        }
      : null,
    quantity: input.quantity,
    print_colours: r.print_colours,
    print_area: r.print_area,
    unit_price: r.unit_price,
    unit_price_source: unitSource,
    print_unit_price: r.print_unit_price,
    print_price_source: printSource,
    discount_percent: r.discount_percent,
    setup_costs: r.setup_costs,
    setup_cost_total: money(setupTotal),
    vat_rate: vat.vat_rate,
    vat_category: vat.vat_category as 'S' | 'Z' | 'AE' | 'G',
    reverse_charge: rating?.category === 'AE',
    line_total: r.line_total,
    line_total_with_setup: money(withSetup),
    vat_amount: money(round2(withSetup.times(vat.vat_rate).dividedBy(100))),
    line: {
      line_type: 'product',
      product_id: r.product_id,
      ...(r.sku !== null ? { sku: r.sku } : {}),
      ...(r.description !== null ? { description: r.description } : {}),
      quantity: r.quantity,
      unit_price: r.unit_price,
      discount_percent: r.discount_percent,
      ...(r.technique_id !== null ? { technique_id: r.technique_id } : {}),
      ...(r.print_position !== null ? { print_position: r.print_position } : {}),
      ...(r.print_area !== null ? { print_area: r.print_area } : {}),
      ...(r.print_colours !== null ? { print_colours: r.print_colours } : {}),
      print_unit_price: r.print_unit_price,
      vat_rate: r.vat_rate,
      setup_costs: r.setup_costs.map((s) => ({
        ...(s.opstartkosten_id !== null ? { opstartkosten_id: s.opstartkosten_id } : {}),
        ...(s.technique_id !== null ? { technique_id: s.technique_id } : {}),
        description: s.description,
        quantity: s.quantity,
        unit_cost: s.unit_cost,
        vat_rate: s.vat_rate,
      })),
    },
    franco: {
      limit: rules.francoLimit.toFixed(2),
      goods_value: money(goods),
      free_shipping: free,
      shipping_cost: money(shipping),
      amount_to_free_shipping: free ? null : money(rules.francoLimit.plus('0.01').minus(goods)),
    },
    currency: 'EUR' as const,
  };
}
