import { z } from 'zod';
import { pageOf, pageQuery, recordId, searchQuery, timestamp } from '../shared/paging';
import { normaliseVatNumber, vatNumberProblem } from './vat-number';

/*
 * Admin customer records (aplt_customers). Browser-safe (zod only): the admin panel validates its
 * forms with these same schemas before it sends them.
 */

export const customerLanguages = ['nl', 'en', 'de'] as const;

const text = (max: number) => z.string().trim().max(max);
/** An optional text field of a form: empty means "no value" (stored as null). */
const optionalText = (max: number) =>
  text(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const customerNumber = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._/-]*$/,
    'letters, digits and . _ / - only, starting with a letter or digit',
  );

export const customerFields = z.object({
  customer_number: customerNumber.optional(),
  email: z
    .string()
    .trim()
    .max(254)
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .pipe(z.email('expected an e-mail address').nullable())
    .nullable()
    .optional(),
  company: optionalText(200),
  first_name: optionalText(100),
  last_name: optionalText(100),
  phone: text(50)
    .regex(/^(\+?[0-9 ()./-]{3,50})?$/, 'digits, spaces and + ( ) . / - only')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  /** Stored normalised (no spaces, dots, dashes; upper case); its shape is checked against `country`. */
  vat_number: text(30)
    .transform((v) => (v === '' ? null : normaliseVatNumber(v)))
    .nullable()
    .optional(),
  coc_number: optionalText(30),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'expected a two-letter country code (ISO 3166)')
    .optional(),
  address_line1: optionalText(200),
  address_line2: optionalText(200),
  postal_code: optionalText(20),
  city: optionalText(100),
  region: optionalText(100),
  shipping_address: z.record(z.string(), z.unknown()).nullable().optional(),
  language: z.enum(customerLanguages).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected a currency code like EUR')
    .optional(),
  payment_term_days: z.number().int().min(0).max(60).optional(),
  payment_term_id: recordId.nullable().optional(),
  discount_group_id: recordId.nullable().optional(),
  brand_id: recordId.nullable().optional(),
  notes: optionalText(5000),
  is_active: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** The VAT number's shape depends on the country: checked on the body as a whole. */
function checkVat(
  v: { vat_number?: string | null | undefined; country?: string | undefined },
  ctx: z.RefinementCtx,
  countryWhenAbsent: string | undefined,
) {
  const country = v.country ?? countryWhenAbsent;
  if (!v.vat_number || !country) return;
  const problem = vatNumberProblem(v.vat_number, country);
  if (problem) ctx.addIssue({ code: 'custom', path: ['vat_number'], message: problem });
}

export const createCustomerBody = customerFields.superRefine((v, ctx) => {
  if (!v.company && !v.last_name && !v.first_name)
    ctx.addIssue({ code: 'custom', path: ['company'], message: 'a company or a name is required' });
  checkVat(v, ctx, 'NL');
});
export type CreateCustomerInput = z.infer<typeof createCustomerBody>;

/**
 * Partial update: fields left out keep their value, null clears a field. `expected_updated_at`
 * (the `updated_at` the form was loaded with) makes the update refuse with 409 when someone else
 * changed the customer in between. A VAT number without a country is checked by the service
 * against the stored country.
 */
export const updateCustomerBody = customerFields
  .extend({ expected_updated_at: z.iso.datetime({ offset: true }).optional() })
  .superRefine((v, ctx) => checkVat(v, ctx, undefined));
export type UpdateCustomerInput = z.infer<typeof updateCustomerBody>;

export const listCustomersQuery = pageQuery.extend({
  /** Matches the customer number, e-mail, company and name (case-insensitive, anywhere). */
  q: searchQuery,
  is_active: z.enum(['true', 'false']).optional(),
  sort: z.enum(['name', 'number', 'newest']).default('name'),
});

export const customerRecord = z.object({
  id: z.number(),
  customer_number: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone: z.string().nullable(),
  vat_number: z.string().nullable(),
  coc_number: z.string().nullable(),
  country: z.string(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  shipping_address: z.record(z.string(), z.unknown()).nullable(),
  language: z.string(),
  currency: z.string(),
  payment_term_days: z.number(),
  payment_term_id: z.number().nullable(),
  discount_group_id: z.number().nullable(),
  brand_id: z.number().nullable(),
  commerce_customer_id: z.string().nullable(),
  notes: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

const money = z.string();

export const customerListItem = customerRecord.extend({
  /** Sum of what is still owed on the customer's invoices (total - credited - paid), excl. proformas. */
  open_balance: money,
});

export const customerDocument = z.object({
  type: z.enum(['quotation', 'order', 'invoice', 'credit_note', 'payment']),
  id: z.number(),
  number: z.string(),
  date: z.string(),
  status: z.string(),
  total: money,
  /** Invoices only: what is still owed. */
  balance: money.nullable(),
});

export const customerDetail = customerRecord.extend({
  open_balance: money,
  /** The part of open_balance past its due date. */
  overdue_balance: money,
  /** Unapplied customer credit (overpayments, credits on paid invoices) not yet spent. */
  available_credit: money,
  document_counts: z.object({
    quotations: z.number(),
    orders: z.number(),
    invoices: z.number(),
    credit_notes: z.number(),
    payments: z.number(),
  }),
  /** The ten newest documents of every kind, newest first. */
  recent_documents: z.array(customerDocument),
});

export const customerList = pageOf(customerListItem);
