import { z } from 'zod';
import { runSchema } from '../connectors/run.schemas';
import { expectedUpdatedAt, pageOf, pageQuery, searchQuery } from '../shared/paging';

/*
 * Suppliers (aplt_suppliers) in the admin panel. Browser-safe (zod only). The feed locations in
 * `settings.feeds` are not part of the API: they may carry a supplier's credentials, and a feed
 * location is fetched (or read from disk) by the connector worker, so only the operator sets them.
 */

export const feedFormats = ['json', 'tsv', 'csv', 'xml', 'strings_json', 'other'] as const;
export const feedKinds = ['products', 'stock', 'prices', 'printdata'] as const;

export const listSuppliersQuery = pageQuery.extend({
  /** Matches code, name, website and e-mail. */
  q: searchQuery,
  is_active: z.enum(['true', 'false']).optional(),
});

export const updateSupplierBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  website: z
    .string()
    .trim()
    .max(500)
    .transform((v) => (v === '' ? null : v))
    .pipe(z.url({ protocol: /^https?$/, error: 'expected an http(s) address' }).nullable())
    .nullable()
    .optional(),
  contact_email: z
    .string()
    .trim()
    .max(254)
    .transform((v) => (v === '' ? null : v.toLowerCase()))
    .pipe(z.email('expected an e-mail address').nullable())
    .nullable()
    .optional(),
  is_active: z.boolean().optional(),
  /** null: the supplier code's default format. */
  feed_format: z.enum(feedFormats).nullable().optional(),
  /** Mark-up on supplier net prices for the retail list, as a string; null: the service default. */
  margin_percent: z
    .string()
    .trim()
    .regex(/^\d{1,4}(\.\d{1,2})?$/, 'expected a percentage like 40 or 37.5 (a string)')
    .refine((v) => Number(v) <= 1000, 'at most 1000')
    .nullable()
    .optional(),
  expected_updated_at: expectedUpdatedAt,
});
export type UpdateSupplierInput = z.infer<typeof updateSupplierBody>;

const timestamp = z.date();

export const supplierRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  /** The stored format; null means the supplier code's default (`format` is what runs use). */
  feed_format: z.enum(feedFormats).nullable(),
  format: z.string(),
  website: z.string().nullable(),
  contact_email: z.string().nullable(),
  is_active: z.boolean(),
  margin_percent: z.string().nullable(),
  /** Which feeds are configured (the locations themselves are not shown). */
  feeds: z.object({
    products: z.boolean(),
    stock: z.boolean(),
    prices: z.boolean(),
    printdata: z.boolean(),
  }),
  product_count: z.number(),
  technique_count: z.number(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const connectorSummary = z.object({
  name: z.string(),
  kind: z.enum(feedKinds),
  /** idle when it never ran, else the state of its newest run. */
  status: z.string(),
  last_run_id: z.number().nullable(),
  last_run_at: timestamp.nullable(),
  /** GET this path for the run's figures, progress and rejected rows. */
  last_run_path: z.string().nullable(),
});

export const supplierListItem = supplierRecord.extend({ connectors: z.array(connectorSummary) });

export const supplierList = pageOf(supplierListItem).extend({
  /** Whether this host may change suppliers (the master's catalog; tenants receive copies). */
  editable: z.boolean(),
});

export const supplierDetail = supplierRecord.extend({
  editable: z.boolean(),
  connectors: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(feedKinds),
      status: z.string(),
      last_run: runSchema.nullable(),
      last_run_path: z.string().nullable(),
    }),
  ),
});
