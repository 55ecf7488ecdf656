import { z } from 'zod';
import { lineInput, sourceCodes } from '../quotations/quotation.schemas';
import { dateInput, decimalInput, positiveId } from '../shared/inputs';

/*
 * Order routes' input rules and the order state machine. Browser-safe (zod only): the admin
 * panel validates with these schemas and offers only the moves the machine allows.
 */

export const orderStatuses = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * The order state machine (spec 1): pending -> confirmed -> shipped -> delivered. Cancelling is
 * possible before shipping (the schema knows 'cancelled'); delivered and cancelled are final.
 */
export const orderTransitions: Record<OrderStatus, OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** A tracking link customers open: an absolute http(s) address. */
export const trackingUrl = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'expected an http(s) address');

export const createOrderBody = z.object({
  customer_id: positiveId.optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  expected_delivery_date: dateInput.optional(),
  shipping_cost: decimalInput.optional(),
  source_code: z.enum(sourceCodes).optional(),
  lines: z.array(lineInput).min(1).max(500),
});

export const updateOrderBody = z.object({
  expected_delivery_date: dateInput.nullable().optional(),
  tracking_url: trackingUrl.nullable().optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  internal_notes: z.string().max(5000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type UpdateOrderInput = z.infer<typeof updateOrderBody>;

export const orderStatusBody = z.object({
  id: positiveId,
  status: z.enum(orderStatuses),
  tracking_url: trackingUrl.optional(),
  expected_delivery_date: dateInput.optional(),
});

export const listOrdersQuery = z.object({
  status: z.enum(orderStatuses).optional(),
  customer_id: positiveId.optional(),
  /** Order number, reference, customer company, name or e-mail (contains, case-insensitive). */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type OrderFilter = z.infer<typeof listOrdersQuery>;
