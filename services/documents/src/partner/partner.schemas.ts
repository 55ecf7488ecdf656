import { z } from 'zod';

/*
 * Partner fulfilment routes' input and output rules (issue #16). Browser-safe (zod only): the
 * admin panel shares them.
 */

/** Our states of an order's partner sync (partner_order_sync.status). */
export const partnerStates = [
  'queued',
  'sending',
  'failed',
  'pushed',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type PartnerState = (typeof partnerStates)[number];

/** States in which the partner holds the order (sent; the status poll reads them). */
export const sentStates: readonly PartnerState[] = [
  'pushed',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
];

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'expected an http(s) address')
  .refine((v) => {
    const u = new URL(v);
    return !u.username && !u.password && !u.search && !u.hash;
  }, 'expected a base address without credentials, query or fragment');

/** Two-digit supplier codes (spec 1) whose products the partner fulfils. */
export const supplierCode = z.string().regex(/^[0-9]{2}$/, 'expected a two-digit supplier code like 03');

/**
 * Partial update of the tenant's partner settings. `password` is write-only: it is never
 * answered, only whether one is set; null removes it. Enabling needs an address, a user name,
 * a password and at least one supplier (422 otherwise).
 */
export const partnerSettingsBody = z
  .object({
    enabled: z.boolean().optional(),
    base_url: httpUrl.nullable().optional(),
    username: z.string().trim().min(1).max(200).nullable().optional(),
    password: z.string().min(1).max(500).nullable().optional(),
    supplier_codes: z.array(supplierCode).max(100).optional(),
  })
  .strict();
export type PartnerSettingsInput = z.infer<typeof partnerSettingsBody>;

export const partnerSettingsResponse = z.object({
  enabled: z.boolean(),
  base_url: z.string().nullable(),
  username: z.string().nullable(),
  /** Whether a password is stored; the password itself never leaves the service. */
  password_set: z.boolean(),
  supplier_codes: z.array(z.string()),
});

export const partnerOrderParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const resendBody = z
  .object({
    /** Resend even when the order is not failed (the partner still sees one order: same key). */
    force: z.boolean().optional(),
  })
  .strict();

export const partnerListQuery = z.object({
  status: z.enum(partnerStates).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PartnerListQuery = z.infer<typeof partnerListQuery>;

export const partnerStateView = z.object({
  order_id: z.number(),
  order_number: z.string(),
  order_status: z.string(),
  status: z.enum(partnerStates),
  partner_process_id: z.string().nullable(),
  partner_document_id: z.string().nullable(),
  partner_organisation_id: z.string().nullable(),
  tracking_url: z.string().nullable(),
  attempts: z.number(),
  last_http_status: z.number().nullable(),
  error_message: z.string().nullable(),
  sent_at: z.date().nullable(),
  shipped_at: z.date().nullable(),
  last_polled_at: z.date().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});

export const orderPartnerResponse = z.object({
  order_id: z.number(),
  order_number: z.string(),
  /** Product lines of the order that the partner fulfils under the current settings. */
  partner_lines: z.number(),
  /** null: the order was never queued for the partner. */
  sync: partnerStateView.nullable(),
});

export const partnerListResponse = z.object({
  data: z.array(partnerStateView),
  count: z.number(),
  limit: z.number(),
  offset: z.number(),
});
