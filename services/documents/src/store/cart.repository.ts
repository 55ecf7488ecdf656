import { randomBytes, randomUUID } from 'node:crypto';
import { type ApltDatabase, type CommerceDatabase, type Kysely, type Selectable, sql } from '@aplt/db';
import type { Updateable } from 'kysely';

/*
 * The only SQL of the carts (aplt_carts, aplt_cart_lines; migration 0902). Every read of a cart
 * that a request names goes through `findCart`/`lockCart`, and the owner rule is applied by the
 * service on what they return.
 */

type Db = Kysely<ApltDatabase>;

export interface CartRow {
  id: string;
  customer_ref: string | null;
  status: 'open' | 'completed' | 'merged';
  quotation_id: number | null;
  merged_into: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CartLineRow {
  id: string;
  cart_id: string;
  product_id: number;
  variant_id: number | null;
  sku: string;
  quantity: number;
  logo_transaction_id: string | null;
  technique_code: string | null;
  print_position: string | null;
  print_colours: number | null;
  logo_colors: string[];
  proof_url: string | null;
  screenshot_url: string | null;
  created_at: Date;
}

export type NewCartLine = Omit<CartLineRow, 'id' | 'cart_id' | 'created_at'>;

export const newCartId = () => `cart_${randomUUID()}`;
const newLineId = () => `cali_${randomBytes(16).toString('hex')}`;

const cartColumns = [
  'id',
  'customer_ref',
  'status',
  'quotation_id',
  'merged_into',
  'completed_at',
  'created_at',
  'updated_at',
] as const;

/** The status column's CHECK allows only CartRow's states. */
type CartState = { status: CartRow['status'] };
/** Written only from NewCartLine's list of colours (the column's CHECK: an array). */
type LineColours = { logo_colors: string[] };

const normaliseCart = <R extends Pick<CartRow, 'quotation_id'>>(r: R) => ({
  ...r,
  quotation_id: r.quotation_id === null ? null : Number(r.quotation_id),
});
const normaliseLine = (
  r: Selectable<ApltDatabase['aplt_cart_lines']> & LineColours,
): CartLineRow & { updated_at: Date } => ({
  ...r,
  product_id: Number(r.product_id),
  variant_id: r.variant_id === null ? null : Number(r.variant_id),
});

export async function insertCart(db: Db, customerRef: string | null): Promise<CartRow> {
  const row = await db
    .insertInto('aplt_carts')
    .values({ id: newCartId(), customer_ref: customerRef })
    .returning(cartColumns)
    .$narrowType<CartState>()
    .executeTakeFirstOrThrow();
  return normaliseCart(row);
}

export async function findCart(db: Db, id: string): Promise<CartRow | undefined> {
  const row = await db
    .selectFrom('aplt_carts')
    .select(cartColumns)
    .where('id', '=', id)
    .$narrowType<CartState>()
    .executeTakeFirst();
  return row ? normaliseCart(row) : undefined;
}

/** The cart row, locked for the rest of the transaction: writes of one cart run one after the other. */
export async function lockCart(db: Db, id: string): Promise<CartRow | undefined> {
  const row = await db
    .selectFrom('aplt_carts')
    .select(cartColumns)
    .where('id', '=', id)
    .forUpdate()
    .$narrowType<CartState>()
    .executeTakeFirst();
  return row ? normaliseCart(row) : undefined;
}

export async function findOpenCartOf(
  db: Db,
  customerRef: string,
  lock = false,
): Promise<CartRow | undefined> {
  let q = db
    .selectFrom('aplt_carts')
    .select(cartColumns)
    .where('customer_ref', '=', customerRef)
    .where('status', '=', 'open')
    .$narrowType<CartState>();
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? normaliseCart(row) : undefined;
}

export async function updateCart(
  db: Db,
  id: string,
  patch: Updateable<ApltDatabase['aplt_carts']>,
): Promise<void> {
  await db.updateTable('aplt_carts').set(patch).where('id', '=', id).execute();
}

/** Marks the cart as changed (updated_at), e.g. after a line write. */
export async function touchCart(db: Db, id: string): Promise<void> {
  await sql`UPDATE aplt_carts SET updated_at = now() WHERE id = ${id}`.execute(db);
}

export async function linesOf(db: Db, cartId: string): Promise<CartLineRow[]> {
  const rows = await db
    .selectFrom('aplt_cart_lines')
    .selectAll()
    .where('cart_id', '=', cartId)
    .orderBy('created_at')
    .orderBy('id')
    .$narrowType<LineColours>()
    .execute();
  return rows.map(normaliseLine);
}

export async function countLines(db: Db, cartId: string): Promise<number> {
  const r = await db
    .selectFrom('aplt_cart_lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('cart_id', '=', cartId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertLine(db: Db, cartId: string, line: NewCartLine): Promise<CartLineRow> {
  const row = await db
    .insertInto('aplt_cart_lines')
    .values({ ...line, id: newLineId(), cart_id: cartId, logo_colors: JSON.stringify(line.logo_colors) })
    .returningAll()
    .$narrowType<LineColours>()
    .executeTakeFirstOrThrow();
  return normaliseLine(row);
}

export async function findLine(db: Db, cartId: string, lineId: string): Promise<CartLineRow | undefined> {
  const row = await db
    .selectFrom('aplt_cart_lines')
    .selectAll()
    .where('cart_id', '=', cartId)
    .where('id', '=', lineId)
    .$narrowType<LineColours>()
    .executeTakeFirst();
  return row ? normaliseLine(row) : undefined;
}

export async function setLineQuantity(db: Db, lineId: string, quantity: number): Promise<void> {
  await db.updateTable('aplt_cart_lines').set({ quantity }).where('id', '=', lineId).execute();
}

export async function deleteLine(db: Db, cartId: string, lineId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('aplt_cart_lines')
    .where('cart_id', '=', cartId)
    .where('id', '=', lineId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Moves every line of `from` to `to` (a merge at sign-in). */
export async function moveLines(db: Db, from: string, to: string): Promise<void> {
  await db.updateTable('aplt_cart_lines').set({ cart_id: to }).where('cart_id', '=', from).execute();
}

/** Product facts a line shows: name in the language, image, the variant's colour. */
export async function productFacts(
  db: Db,
  productIds: number[],
  variantIds: number[],
  lang: 'nl' | 'en' | 'de',
) {
  const name = { nl: sql.ref('name_nl'), en: sql.ref('name_en'), de: sql.ref('name_de') }[lang];
  const products = productIds.length
    ? await db
        .selectFrom('aplt_products')
        .select(['id', 'sku', 'image_url', sql<string>`coalesce(${name}, name_nl)`.as('name')])
        .where('id', 'in', productIds)
        .execute()
    : [];
  const variants = variantIds.length
    ? await db
        .selectFrom('aplt_product_variants')
        .select(['id', 'sku', 'color_name', 'image_url'])
        .where('id', 'in', variantIds)
        .execute()
    : [];
  return {
    products: new Map(products.map((p) => [Number(p.id), p])),
    variants: new Map(variants.map((v) => [Number(v.id), v])),
  };
}

/**
 * Who hears about a quotation request: the brand's `quotations_email` setting (comma-separated),
 * else its company `email`, else every admin user of the tenant (the same fallbacks as returns).
 */
export async function quotationStaffAddresses(
  aplt: Db,
  commerce: Kysely<CommerceDatabase>,
  brandId: number | null,
): Promise<string[]> {
  const brand =
    brandId ??
    (await aplt.selectFrom('aplt_brands').select('id').where('is_default', '=', true).executeTakeFirst())
      ?.id ??
    null;
  if (brand !== null) {
    const settings = await aplt
      .selectFrom('aplt_cms_settings')
      .select(['key', 'value'])
      .where('brand_id', '=', brand)
      .where('key', 'in', ['quotations_email', 'email'])
      .execute();
    const byKey = new Map(settings.map((s) => [s.key, s.value]));
    const configured = byKey.get('quotations_email') || byKey.get('email');
    if (configured) return configured.split(/[,;\s]+/).filter(Boolean);
  }
  const users = await commerce
    .selectFrom('user')
    .select('email')
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
  return users.map((u) => u.email);
}

/** The commerce account of a signed-in customer (the commerce database), to start their customer record from. */
export async function commerceProfile(commerce: Kysely<CommerceDatabase>, customerRef: string) {
  return commerce
    .selectFrom('customer')
    .select([
      'email',
      'first_name',
      'last_name',
      'company_name',
      'phone',
      sql<string | null>`metadata->>'preferred_language'`.as('preferred_language'),
    ])
    .where('id', '=', customerRef)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The product (and variant, when the SKU is one) an SKU names, and whether the shop sells it. */
export const findSku = (db: Db, sku: string) =>
  db
    .selectFrom('aplt_skus as s')
    .innerJoin('aplt_products as p', 'p.id', 's.product_id')
    .select(['s.product_id', 's.variant_id', 'p.is_sellable'])
    .where('s.sku', '=', sku)
    .executeTakeFirst();

/** The quotation request a cart became: its id and number. */
export const quotationRef = (db: Db, quotationId: number) =>
  db
    .selectFrom('aplt_quotation_headers')
    .select(['id', 'quotation_number'])
    .where('id', '=', quotationId)
    .executeTakeFirst();
