import { type Kysely, sql } from '@aplt/db';

/** Tiered price: the highest min_quantity not above the quantity, valid on the date. */
export async function findTierPrice(db: Kysely<any>, productId: number, quantity: number, onDate: string) {
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

export async function findProduct(db: Kysely<any>, productId: number) {
  return db
    .selectFrom('aplt_products as p')
    .leftJoin('aplt_vat_codes as v', 'v.id', 'p.vat_code_id')
    .select(['p.id', 'p.sku', 'p.name_nl', 'p.retail_price_100', 'p.status', 'v.rate as vat_rate'])
    .where('p.id', '=', productId)
    .executeTakeFirst();
}

export async function findTechnique(db: Kysely<any>, techniqueId: number) {
  return db
    .selectFrom('aplt_techniques')
    .select(['id', 'code', 'name_nl'])
    .where('id', '=', techniqueId)
    .executeTakeFirst();
}

/** Print price per unit for the quantity scale and colours (NULL colours = any). */
export async function findTechniquePrice(
  db: Kysely<any>,
  techniqueId: number,
  quantity: number,
  colours: number | undefined,
) {
  return db
    .selectFrom('aplt_technique_pricing')
    .select(['price_per_unit', 'next_colour_price', 'colours'])
    .where('technique_id', '=', techniqueId)
    .where('min_quantity', '<=', quantity)
    .where((eb) =>
      colours === undefined
        ? eb('colours', 'is', null)
        : eb.or([eb('colours', 'is', null), eb('colours', '=', colours)]),
    )
    .orderBy('min_quantity', 'desc')
    .orderBy(sql`colours IS NULL`)
    .limit(1)
    .executeTakeFirst();
}

/** Setup cost of a technique: the product-specific row wins over the technique default. */
export async function findOpstartkosten(db: Kysely<any>, techniqueId: number, productId: number | undefined) {
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

export async function findOpstartkostenById(db: Kysely<any>, id: number) {
  return db.selectFrom('aplt_opstartkosten').selectAll().where('id', '=', id).executeTakeFirst();
}
