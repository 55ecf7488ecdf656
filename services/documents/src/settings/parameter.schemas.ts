import { z } from 'zod';
import { timestamp } from '../shared/paging';

/*
 * The tenant parameters kept in aplt_settings (key/value) that the service reads, with their
 * rules. Browser-safe (zod only). VAT rates and payment terms are not settings: they are the
 * tables aplt_vat_codes and aplt_payment_terms, shown beside the parameters read-only.
 */

/** An amount in euros as a string: up to 10 digits, at most 2 decimals ("750.00"). */
export const moneyValue = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, 'expected an amount like 750.00 (a string, at most 2 decimals)');

const wholeNumber = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^\d{1,7}$/, 'expected a whole number'),
  ])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1).max(1_000_000))
  .transform((v) => String(v));

export const parameterCatalog = {
  franco_limit: {
    type: 'money',
    value: moneyValue,
    description:
      'Franco limit: shipping is free when the goods value (excl. VAT) is strictly above it; at or below it shipping is charged.',
  },
  shipping_cost_default: {
    type: 'money',
    value: moneyValue,
    description: 'Shipping cost charged at or below the franco limit when no per-box cost applies.',
  },
  shipping_cost_per_box: {
    type: 'money',
    value: moneyValue,
    description:
      'Shipping cost per box below the franco limit; applies only together with units_per_box (boxes = ceil(units / units_per_box)).',
  },
  units_per_box: {
    type: 'integer',
    value: wholeNumber,
    description: 'Product units per shipping box, for shipping_cost_per_box.',
  },
} as const;

export type ParameterKey = keyof typeof parameterCatalog;
export const parameterKeys = Object.keys(parameterCatalog) as ParameterKey[];

/**
 * Values to set; null removes the row, so the default applies again. Only the keys above: an
 * unknown key is refused, as is a malformed value. `expected_updated_at` (the newest `updated_at`
 * the form was loaded with, null when no parameter was stored) refuses with 409 when someone
 * changed a parameter in between.
 */
export const updateParametersBody = z.object({
  values: z
    .object({
      franco_limit: parameterCatalog.franco_limit.value.nullable().optional(),
      shipping_cost_default: parameterCatalog.shipping_cost_default.value.nullable().optional(),
      shipping_cost_per_box: parameterCatalog.shipping_cost_per_box.value.nullable().optional(),
      units_per_box: parameterCatalog.units_per_box.value.nullable().optional(),
    })
    .strict(),
  expected_updated_at: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type UpdateParametersInput = z.infer<typeof updateParametersBody>;

export const parametersResponse = z.object({
  parameters: z.array(
    z.object({
      key: z.enum(parameterKeys as [ParameterKey, ...ParameterKey[]]),
      type: z.enum(['money', 'integer']),
      /** The stored value; null when the key has no row. */
      value: z.string().nullable(),
      /** What applies without a row (the service's environment default), null when nothing does. */
      default: z.string().nullable(),
      /** What the service uses now. */
      effective: z.string().nullable(),
      description: z.string(),
      updated_at: timestamp.nullable(),
    }),
  ),
  /** The newest updated_at of the stored parameters (send it back as expected_updated_at). */
  updated_at: timestamp.nullable(),
  /** Rows of aplt_settings the service does not read (shown, never written here). */
  other_settings: z.array(
    z.object({
      key: z.string(),
      value: z.string().nullable(),
      value_type: z.string(),
      description: z.string().nullable(),
      updated_at: timestamp,
    }),
  ),
  vat_codes: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      name: z.string(),
      rate: z.string(),
      category: z.string(),
      is_default: z.boolean(),
      is_active: z.boolean(),
    }),
  ),
  payment_terms: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      name_nl: z.string().nullable(),
      name_en: z.string().nullable(),
      days: z.number(),
      is_default: z.boolean(),
      is_active: z.boolean(),
    }),
  ),
});
