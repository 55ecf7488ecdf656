import { z } from 'zod';
import { recordId } from '../shared/paging';

/*
 * The price the service proposes for one quotation line, before it is saved. Browser-safe (zod
 * only): the line editor sends its row as the user edits it and shows what comes back.
 */

/** An amount as a string ("12.50", at most 4 decimals); never a binary float. */
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,4})?$/, 'expected an amount like 12.50 (a string, at most 4 decimals)');
const percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'expected a percentage like 10 or 12.5')
  .refine((v) => Number(v) <= 100, 'at most 100');

export const priceProposalBody = z
  .object({
    /** A product SKU or one of its variants' SKUs (e.g. 100-01 or 100-01.05). */
    sku: z.string().trim().min(1).max(100).optional(),
    product_id: recordId.optional(),
    quantity: z.number().int().min(1).max(10_000_000),
    technique_id: recordId.optional(),
    technique_code: z.string().trim().min(1).max(100).optional(),
    /** The product's print position, by id or by its code. */
    print_position_id: recordId.optional(),
    print_position: z.string().trim().min(1).max(100).optional(),
    /** Print size in mm, "<width>x<height>"; without it the position's (or the technique's) size applies. */
    print_area: z
      .string()
      .trim()
      .regex(/^\d{1,5}(\.\d{1,2})?x\d{1,5}(\.\d{1,2})?$/, 'expected <width>x<height> in mm, e.g. 50x30')
      .optional(),
    print_colours: z.number().int().min(0).max(20).optional(),
    /** Overrides of what the catalog would give. */
    unit_price: amount.optional(),
    print_unit_price: amount.optional(),
    discount_percent: percent.optional(),
    /** The customer decides the VAT (reverse charge within the EU, export outside it). */
    customer_id: recordId.optional(),
    /** The day whose price scales apply (YYYY-MM-DD; default today). */
    date: z.iso.date().optional(),
    /**
     * The rest of the quotation, for the franco rule: goods value excl. VAT of the other lines
     * (with their setup costs, less discounts) and their product units.
     */
    other_goods_value: amount.optional(),
    other_units: z.number().int().min(0).max(100_000_000).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.sku === undefined && v.product_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['sku'], message: 'give sku or product_id' });
    if (v.technique_id !== undefined && v.technique_code !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['technique_code'],
        message: 'give technique_id or technique_code, not both',
      });
    if (v.print_position_id !== undefined && v.print_position !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['print_position'],
        message: 'give print_position_id or print_position, not both',
      });
  });
export type PriceProposalInput = z.infer<typeof priceProposalBody>;

const money = z.string();

const setupCost = z.object({
  opstartkosten_id: z.number().nullable(),
  technique_id: z.number().nullable(),
  description: z.string(),
  quantity: z.number(),
  unit_cost: money,
  total: money,
  vat_rate: money,
});

export const priceProposalResponse = z.object({
  product: z.object({
    id: z.number(),
    sku: z.string(),
    name: z.string(),
    variant_id: z.number().nullable(),
    variant_sku: z.string().nullable(),
    colour: z.string().nullable(),
  }),
  technique: z
    .object({
      id: z.number(),
      code: z.string(),
      name: z.string(),
      pricing_type: z.string(),
      max_colours: z.number().nullable(),
    })
    .nullable(),
  print_position: z
    .object({
      id: z.number(),
      code: z.string(),
      name: z.string().nullable(),
      print_area: z.string().nullable(),
    })
    .nullable(),
  quantity: z.number(),
  print_colours: z.number().nullable(),
  print_area: z.string().nullable(),
  /** Product price per unit (4 decimals) and where it came from. */
  unit_price: money,
  unit_price_source: z.enum(['given', 'scale', 'retail_price_100']),
  /** Print price per unit (4 decimals) and where it came from. */
  print_unit_price: money,
  print_price_source: z.enum(['given', 'technique_pricing', 'none']),
  discount_percent: money,
  setup_costs: z.array(setupCost),
  setup_cost_total: money,
  vat_rate: money,
  /**
   * S (standard), Z (zero rate), AE (reverse charge: the customer accounts for the VAT) or G
   * (export outside the EU).
   */
  vat_category: z.enum(['S', 'Z', 'AE', 'G']),
  reverse_charge: z.boolean(),
  /** quantity x (unit + print price) less the discount, excl. VAT and setup: what the line stores. */
  line_total: money,
  line_total_with_setup: money,
  /** VAT on line_total_with_setup at the line's rate (the document rounds VAT once per rate). */
  vat_amount: money,
  /** This line as an element of `lines` of POST/PUT /admin/aplt/quotations: saving it gives these prices. */
  line: z.object({}).catchall(z.unknown()),
  franco: z.object({
    /** Shipping is free when goods_value is strictly above the limit. */
    limit: money,
    goods_value: money,
    free_shipping: z.boolean(),
    shipping_cost: money,
    /** What the goods value still needs to ship free; null when it already does. */
    amount_to_free_shipping: money.nullable(),
  }),
  currency: z.literal('EUR'),
});
