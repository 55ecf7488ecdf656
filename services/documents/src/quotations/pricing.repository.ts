import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

/** Tiered price: the highest min_quantity not above the quantity, valid on the date. */
export async function findTierPrice(
  db: Kysely<ApltDatabase>,
  productId: number,
  quantity: number,
  onDate: string,
) {
  return db
    .selectFrom('aplt_product_prices')
    .select(['price', 'min_quantity'])
    .where('product_id', '=', productId)
    .where('variant_id', 'is', null)
    .where('price_list', '=', 'retail')
    .where('min_quantity', '<=', quantity)
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', onDate)]))
    .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', onDate)]))
    .orderBy('min_quantity', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findProduct(db: Kysely<ApltDatabase>, productId: number) {
  return db
    .selectFrom('aplt_products as p')
    .leftJoin('aplt_vat_codes as v', 'v.id', 'p.vat_code_id')
    .select(['p.id', 'p.sku', 'p.name_nl', 'p.retail_price_100', 'p.status', 'v.rate as vat_rate'])
    .where('p.id', '=', productId)
    .executeTakeFirst();
}

export async function findTechnique(db: Kysely<ApltDatabase>, techniqueId: number) {
  return db
    .selectFrom('aplt_techniques')
    .select(['id', 'code', 'name_nl'])
    .where('id', '=', techniqueId)
    .executeTakeFirst();
}

/**
 * The technique's price scale that applies: the highest min_quantity not above the quantity, for
 * the colours (a row for exactly that number of colours before one for any number, NULL), and,
 * when the print area is known (cm2), a row whose area range holds it (a ranged row before an
 * open one).
 */
export async function findTechniquePrice(
  db: Kysely<ApltDatabase>,
  techniqueId: number,
  quantity: number,
  colours: number | undefined,
  areaCm2?: string,
) {
  return db
    .selectFrom('aplt_technique_pricing')
    .select([
      'id',
      'price_per_unit',
      'next_colour_price',
      'colours',
      'setup_cost',
      'area_from',
      'area_to',
      'min_quantity',
    ])
    .where('technique_id', '=', techniqueId)
    .where('min_quantity', '<=', quantity)
    .where((eb) =>
      colours === undefined
        ? eb('colours', 'is', null)
        : eb.or([eb('colours', 'is', null), eb('colours', '=', colours)]),
    )
    .$if(areaCm2 !== undefined, (q) =>
      q
        .where((eb) => eb.or([eb('area_from', 'is', null), eb('area_from', '<=', areaCm2!)]))
        .where((eb) => eb.or([eb('area_to', 'is', null), eb('area_to', '>=', areaCm2!)])),
    )
    .orderBy('min_quantity', 'desc')
    .orderBy(sql`colours IS NULL`)
    .orderBy(sql`area_from IS NULL AND area_to IS NULL`)
    .limit(1)
    .executeTakeFirst();
}

/** Setup cost of a technique: the product-specific row wins over the technique default. */
export async function findOpstartkosten(
  db: Kysely<ApltDatabase>,
  techniqueId: number,
  productId: number | undefined,
) {
  return db
    .selectFrom('aplt_opstartkosten')
    .selectAll()
    .where('technique_id', '=', techniqueId)
    .where('is_active', '=', true)
    .where((eb) =>
      productId === undefined
        ? eb('product_id', 'is', null)
        : eb.or([eb('product_id', 'is', null), eb('product_id', '=', productId)]),
    )
    .orderBy(sql`product_id IS NULL`)
    .limit(1)
    .executeTakeFirst();
}

export async function findOpstartkostenById(db: Kysely<ApltDatabase>, id: number) {
  return db.selectFrom('aplt_opstartkosten').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A product or variant SKU (aplt_skus knows both) -> the product, and the variant when it is one. */
export async function findSku(db: Kysely<ApltDatabase>, sku: string) {
  return db
    .selectFrom('aplt_skus as s')
    .leftJoin('aplt_product_variants as v', 'v.id', 's.variant_id')
    .select(['s.product_id', 's.variant_id', 'v.sku as variant_sku', 'v.color_name'])
    .where('s.sku', '=', sku)
    .executeTakeFirst();
}

export async function findTechniqueByCode(db: Kysely<ApltDatabase>, code: string) {
  return db.selectFrom('aplt_techniques').select('id').where('code', '=', code).executeTakeFirst();
}

export async function findTechniqueDetails(db: Kysely<ApltDatabase>, id: number) {
  return db
    .selectFrom('aplt_techniques')
    .select(['id', 'code', 'name_nl', 'pricing_type', 'max_colours', 'is_active'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A print position of the product, by id or by its code. */
export async function findPrintPosition(
  db: Kysely<ApltDatabase>,
  productId: number,
  by: { id?: number; code?: string },
) {
  let q = db
    .selectFrom('aplt_print_positions')
    .select(['id', 'position_code', 'position_name', 'print_area'])
    .where('product_id', '=', productId);
  if (by.id !== undefined) q = q.where('id', '=', by.id);
  if (by.code !== undefined) q = q.where('position_code', '=', by.code);
  return q.executeTakeFirst();
}

/** Which techniques the product offers at which positions (empty: the catalog says nothing). */
export async function productTechniqueLinks(db: Kysely<ApltDatabase>, productId: number) {
  return db
    .selectFrom('aplt_product_techniques')
    .select(['technique_id', 'print_position_id', 'max_colours', 'print_area'])
    .where('product_id', '=', productId)
    .execute();
}
