import { z } from 'zod';
import { dateInput, decimalInput } from '../shared/inputs';

export const sourceCodes = ['agent', 'web', 'manual', 'admin'] as const;
export const quotationStatuses = ['open', 'accepted', 'expired', 'rejected'] as const;
export const lineTypes = ['product', 'setup', 'shipping', 'discount', 'text', 'other'] as const;

export const setupCostInput = z.object({
  opstartkosten_id: z.coerce.number().int().positive().optional(),
  technique_id: z.coerce.number().int().positive().optional(),
  description: z.string().min(1).max(500).optional(),
  /** Multiplier: colours or positions the setup cost applies to. */
  quantity: z.number().int().positive().default(1),
  unit_cost: decimalInput.optional(),
  vat_rate: decimalInput.optional(),
});

export const lineInput = z.object({
  line_type: z.enum(lineTypes).default('product'),
  product_id: z.coerce.number().int().positive().optional(),
  sku: z.string().max(100).optional(),
  description: z.string().max(2000).optional(),
  quantity: z.number().int().positive().max(10_000_000).default(1),
  /** Omitted: the tiered product price for this quantity (aplt_product_prices, else retail_price_100). */
  unit_price: decimalInput.optional(),
  discount_percent: decimalInput.optional(),
  technique_id: z.coerce.number().int().positive().optional(),
  print_position: z.string().max(200).optional(),
  print_area: z.string().max(100).optional(),
  print_colours: z.number().int().min(0).max(20).optional(),
  /** Omitted with a technique: the technique's scale price for this quantity and colours. */
  print_unit_price: decimalInput.optional(),
  vat_rate: decimalInput.optional(),
  /**
   * Omitted with a technique: the technique's opstartkosten (product-specific row first), times
   * the colours when the cost is per colour. An empty array means no setup cost.
   */
  setup_costs: z.array(setupCostInput).max(20).optional(),
  logo_transaction_id: z.string().uuid().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type LineInput = z.infer<typeof lineInput>;

export const quotationHeaderInput = z.object({
  customer_id: z.coerce.number().int().positive().optional(),
  brand_id: z.coerce.number().int().positive().optional(),
  source_code: z.enum(sourceCodes).optional(),
  quotation_date: dateInput.optional(),
  valid_until: dateInput.optional(),
  reference: z.string().max(200).optional(),
  title: z.string().max(500).optional(),
  customer_email: z.string().email().optional(),
  customer_name: z.string().max(200).optional(),
  customer_company: z.string().max(200).optional(),
  billing_address: z.record(z.string(), z.unknown()).optional(),
  shipping_address: z.record(z.string(), z.unknown()).optional(),
  language: z.enum(['nl', 'en', 'de']).optional(),
  /** Overrides the franco rule for this quotation. */
  shipping_cost: decimalInput.optional(),
  terms: z.string().max(5000).optional(),
  notes: z.string().max(5000).optional(),
  internal_notes: z.string().max(5000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const createQuotationBody = quotationHeaderInput.extend({
  lines: z.array(lineInput).max(500).default([]),
});
export type CreateQuotationInput = z.infer<typeof createQuotationBody>;

export const updateQuotationBody = quotationHeaderInput.extend({
  /** When given, replaces all lines. */
  lines: z.array(lineInput).max(500).optional(),
});
export type UpdateQuotationInput = z.infer<typeof updateQuotationBody>;

export const listQuotationsQuery = z.object({
  source_code: z.enum(sourceCodes).optional(),
  status: z.enum(quotationStatuses).optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  q: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
