import { z } from 'zod';
import { pageOf, pageQuery, searchQuery } from '../shared/paging';

/*
 * The admin's product search (the quotation line editor's product picker): every product of the
 * tenant's catalog, sellable or not, with what a line needs - variants with stock, retail scales,
 * and the techniques each print position offers. Browser-safe (zod only).
 */

export const listAdminProductsQuery = pageQuery.extend({
  /** A SKU (prefix, product or variant) or words of the name, brand, material or description. */
  q: searchQuery,
  supplier_code: z
    .string()
    .regex(/^\d{2}$/, 'expected a two-digit supplier code')
    .optional(),
  /** Only sellable products (a retail price and status active). */
  sellable: z.enum(['true', 'false']).optional(),
});

export const adminProduct = z.object({
  id: z.number(),
  sku: z.string(),
  name_nl: z.string(),
  name_en: z.string().nullable(),
  supplier_code: z.string(),
  status: z.string(),
  is_sellable: z.boolean(),
  retail_price_100: z.string().nullable(),
  min_order_quantity: z.number(),
  image_url: z.string().nullable(),
  /** The product's own VAT rate; null: the standard rate applies. */
  vat_rate: z.string().nullable(),
  price_tiers: z.array(z.object({ min_quantity: z.number(), price: z.string() })),
  variants: z.array(
    z.object({
      id: z.number(),
      sku: z.string(),
      color_code: z.string().nullable(),
      color_name: z.string().nullable(),
      hex: z.string().nullable(),
      is_active: z.boolean(),
      stock: z.number().nullable(),
    }),
  ),
  print_positions: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      name: z.string().nullable(),
      print_area: z.string().nullable(),
      techniques: z.array(
        z.object({
          id: z.number(),
          code: z.string(),
          name: z.string(),
          pricing_type: z.string(),
          max_colours: z.number().nullable(),
          /** This technique's print size here (mm); null: the position's. */
          print_area: z.string().nullable(),
          is_default: z.boolean(),
        }),
      ),
    }),
  ),
});

export const adminProductList = pageOf(adminProduct);
