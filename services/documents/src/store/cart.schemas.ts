import { z } from 'zod';

/*
 * Input shapes of the cart routes (`/store/carts`). Limits: a cart holds at most MAX_CART_LINES
 * lines, a line 1..MAX_LINE_QUANTITY pieces; every string is bounded. NUL bytes and unpaired
 * surrogates are refused by the fleet's string rule before these run.
 */

export const MAX_CART_LINES = 50;
export const MAX_LINE_QUANTITY = 1_000_000;

export const cartIdParam = z.object({
  id: z
    .string()
    .regex(/^cart_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'not a cart id'),
});
export const cartLineParam = cartIdParam.extend({
  line_id: z.string().regex(/^cali_[0-9a-f]{32}$/, 'not a cart line id'),
});
export const langQuery = z.object({ lang: z.enum(['nl', 'en', 'de']).default('nl') });

const quantity = z.number().int().min(1).max(MAX_LINE_QUANTITY);
const sku = z.string().trim().min(1).max(100);
/** A link to a file of the logo modal (http or https only: never javascript: or data:). */
const fileUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((v) => !new URL(v).username && !new URL(v).password, 'no credentials in a link');

export const configurationInput = z
  .strictObject({
    /** The logo modal's transaction (spec 3: transactionId). */
    transaction_id: z.uuid(),
    /** Print technique code (techniqueCode). */
    technique: z.string().trim().min(1).max(100),
    /** Print position code (logoConfig.position). */
    position: z.string().trim().min(1).max(100).optional(),
    /** Colours of the logo (logoConfig.colors, `#RRGGBB`); their number is the print's colours. */
    colors: z
      .array(z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected #RRGGBB'))
      .max(20)
      .optional(),
    proof_url: fileUrl.optional(),
    screenshot_url: fileUrl.optional(),
  })
  .superRefine((c, ctx) => {
    // The links are the transaction's own file endpoints (spec 3: /api/transactions/{id}/pdf and
    // /screenshot), on whichever host the modal was reached: nothing else is shown as its proof.
    for (const [key, file] of [
      ['proof_url', 'pdf'],
      ['screenshot_url', 'screenshot'],
    ] as const) {
      const url = c[key];
      if (url !== undefined && new URL(url).pathname !== `/api/transactions/${c.transaction_id}/${file}`)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `expected the transaction's /api/transactions/${c.transaction_id}/${file}`,
        });
    }
  });
export type ConfigurationInput = z.infer<typeof configurationInput>;

export const addLineBody = z.strictObject({
  /** A product or variant SKU. */
  sku,
  /** A variant SKU of the product (the variant chosen on the product page), instead of `sku`'s own. */
  variant_id: sku.optional(),
  quantity,
  configuration: configurationInput.optional(),
});
export type AddLineInput = z.infer<typeof addLineBody>;

export const updateLineBody = z.strictObject({ quantity });

export const quoteRequestBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  email: z.email().max(320).optional(),
  company: z.string().trim().min(1).max(200).optional(),
  phone: z
    .string()
    .trim()
    .max(50)
    .regex(/^[0-9+()./\s-]*$/, 'digits, spaces and + ( ) . / - only')
    .optional(),
  remark: z.string().trim().max(2000).optional(),
  lang: z.enum(['nl', 'en', 'de']).optional(),
});
export type QuoteRequestInput = z.infer<typeof quoteRequestBody>;

export const emptyBody = z.strictObject({}).nullish();
