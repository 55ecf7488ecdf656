import { z } from 'zod';
import { expectedUpdatedAt, pageOf, pageQuery, searchQuery } from '../shared/paging';

/*
 * Techniques with their price scales (aplt_techniques, aplt_technique_pricing) and default setup
 * costs (aplt_opstartkosten). Browser-safe (zod only). Amounts are strings, never floats.
 */

/** A price per unit, numeric(14,4): "0.4500". */
const unitPrice = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,4})?$/, 'expected an amount like 0.45 (a string, at most 4 decimals)');
/** An amount, numeric(14,2): "45.00". */
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'expected an amount like 45.00 (a string, at most 2 decimals)');
/** A print area in cm2, numeric(10,2). */
const area = z
  .string()
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, 'expected an area in cm2 like 12.5 (a string)');

export const listTechniquesQuery = pageQuery.extend({
  /** Matches code and names. */
  q: searchQuery,
  supplier_code: z
    .string()
    .regex(/^\d{2}$/, 'expected a two-digit supplier code')
    .optional(),
  is_active: z.enum(['true', 'false']).optional(),
});

const tierFields = {
  /** Print-area range in cm2 the scale applies to; both null: any area. */
  area_from: area.nullable(),
  area_to: area.nullable(),
  /** Number of colours the scale is for; null: any number (next_colour_price per further colour). */
  colours: z.number().int().min(1).max(50).nullable(),
  /** The scale applies from this quantity up to the next scale's. */
  min_quantity: z.number().int().min(1).max(10_000_000),
  price_per_unit: unitPrice,
  next_colour_price: unitPrice.nullable(),
  setup_cost: amount,
  setup_repeat_cost: amount.nullable(),
  small_order_charge: amount.nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'expected a currency code like EUR'),
  valid_from: z.iso.date().nullable(),
  valid_until: z.iso.date().nullable(),
};

const ordered = (
  v: {
    area_from?: string | null;
    area_to?: string | null;
    valid_from?: string | null;
    valid_until?: string | null;
  },
  ctx: z.RefinementCtx,
) => {
  if (v.area_from != null && v.area_to != null && Number(v.area_to) < Number(v.area_from))
    ctx.addIssue({ code: 'custom', path: ['area_to'], message: 'area_to must not be below area_from' });
  if (v.valid_from != null && v.valid_until != null && v.valid_until < v.valid_from)
    ctx.addIssue({
      code: 'custom',
      path: ['valid_until'],
      message: 'valid_until must not be before valid_from',
    });
};

export const createTierBody = z
  .object({
    ...tierFields,
    area_from: tierFields.area_from.optional(),
    area_to: tierFields.area_to.optional(),
    colours: tierFields.colours.optional(),
    next_colour_price: tierFields.next_colour_price.optional(),
    setup_cost: tierFields.setup_cost.optional(),
    setup_repeat_cost: tierFields.setup_repeat_cost.optional(),
    small_order_charge: tierFields.small_order_charge.optional(),
    currency: tierFields.currency.optional(),
    valid_from: tierFields.valid_from.optional(),
    valid_until: tierFields.valid_until.optional(),
  })
  .superRefine(ordered);
export type CreateTierInput = z.infer<typeof createTierBody>;

/** Fields left out keep their value; `expected_updated_at` refuses a stale form with 409. */
export const updateTierBody = z
  .object({
    area_from: tierFields.area_from.optional(),
    area_to: tierFields.area_to.optional(),
    colours: tierFields.colours.optional(),
    min_quantity: tierFields.min_quantity.optional(),
    price_per_unit: tierFields.price_per_unit.optional(),
    next_colour_price: tierFields.next_colour_price.optional(),
    setup_cost: tierFields.setup_cost.optional(),
    setup_repeat_cost: tierFields.setup_repeat_cost.optional(),
    small_order_charge: tierFields.small_order_charge.optional(),
    currency: tierFields.currency.optional(),
    valid_from: tierFields.valid_from.optional(),
    valid_until: tierFields.valid_until.optional(),
    expected_updated_at: expectedUpdatedAt,
  })
  .superRefine(ordered);
export type UpdateTierInput = z.infer<typeof updateTierBody>;

export const tierParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  tierId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

const timestamp = z.date();

export const tierRecord = z.object({
  id: z.number(),
  area_from: z.string().nullable(),
  area_to: z.string().nullable(),
  colours: z.number().nullable(),
  min_quantity: z.number(),
  price_per_unit: z.string(),
  next_colour_price: z.string().nullable(),
  setup_cost: z.string(),
  setup_repeat_cost: z.string().nullable(),
  small_order_charge: z.string().nullable(),
  currency: z.string(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  updated_at: timestamp,
});

export const techniqueRecord = z.object({
  id: z.number(),
  code: z.string(),
  supplier_code: z.string().nullable(),
  name_nl: z.string(),
  name_en: z.string().nullable(),
  name_de: z.string().nullable(),
  pricing_type: z.string(),
  max_colours: z.number().nullable(),
  full_colour: z.boolean(),
  is_active: z.boolean(),
  sort_order: z.number(),
  updated_at: timestamp,
  /** Ordered by colours, area and quantity. */
  tiers: z.array(tierRecord),
  /** The technique's default setup cost (opstartkosten without a product). */
  setup_cost: z
    .object({
      id: z.number(),
      description: z.string().nullable(),
      setup_cost: z.string(),
      repeat_setup_cost: z.string().nullable(),
      per_colour: z.boolean(),
      per_position: z.boolean(),
      is_active: z.boolean(),
    })
    .nullable(),
  /** Products with a setup cost of their own for this technique. */
  product_setup_costs: z.number(),
});

export const techniqueList = pageOf(techniqueRecord).extend({
  /** Whether this host may change the pricing (the master's catalog; tenants receive copies). */
  editable: z.boolean(),
});
export const techniqueDetail = techniqueRecord.extend({ editable: z.boolean() });
export const tierResult = z.object({ tier: tierRecord, technique: techniqueDetail });
