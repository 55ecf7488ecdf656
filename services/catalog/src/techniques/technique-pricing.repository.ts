import { type ApltDatabase, type Insertable, type Kysely, sql } from '@aplt/db';
import { containsPattern } from '../shared/paging';

type Db = Kysely<ApltDatabase>;

/** A new price scale of a technique. */
export type NewTier = Insertable<ApltDatabase['aplt_technique_pricing']>;

/** What the admin may change of a scale (its technique stays). */
export type TierChanges = Partial<
  Pick<
    NewTier,
    | 'area_from'
    | 'area_to'
    | 'colours'
    | 'min_quantity'
    | 'price_per_unit'
    | 'next_colour_price'
    | 'setup_cost'
    | 'setup_repeat_cost'
    | 'small_order_charge'
    | 'currency'
    | 'valid_from'
    | 'valid_until'
  >
>;

const techniqueColumns = [
  't.id',
  't.code',
  't.supplier_code',
  't.name_nl',
  't.name_en',
  't.name_de',
  't.pricing_type',
  't.max_colours',
  't.full_colour',
  't.is_active',
  't.sort_order',
  't.updated_at',
] as const;

export const tierColumns = [
  'id',
  'technique_id',
  'area_from',
  'area_to',
  'colours',
  'min_quantity',
  'price_per_unit',
  'next_colour_price',
  'setup_cost',
  'setup_repeat_cost',
  'small_order_charge',
  'currency',
  'valid_from',
  'valid_until',
  'updated_at',
] as const;

export async function listTechniques(
  db: Db,
  f: {
    q?: string | undefined;
    supplier_code?: string | undefined;
    is_active?: boolean | undefined;
    limit: number;
    offset: number;
  },
) {
  let q = db.selectFrom('aplt_techniques as t');
  if (f.supplier_code) q = q.where('t.supplier_code', '=', f.supplier_code);
  if (f.is_active !== undefined) q = q.where('t.is_active', '=', f.is_active);
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([
        eb('t.code', 'ilike', p),
        eb('t.name_nl', 'ilike', p),
        eb('t.name_en', 'ilike', p),
        eb('t.name_de', 'ilike', p),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .select([...techniqueColumns])
      .orderBy('t.sort_order')
      .orderBy('t.code')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export async function findTechnique(db: Db, id: number, forUpdate = false) {
  let q = db
    .selectFrom('aplt_techniques as t')
    .select([...techniqueColumns])
    .where('t.id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function tiersOf(db: Db, techniqueIds: number[]) {
  if (!techniqueIds.length) return [];
  return db
    .selectFrom('aplt_technique_pricing')
    .select([...tierColumns])
    .where('technique_id', 'in', techniqueIds)
    .orderBy(sql`colours NULLS FIRST`)
    .orderBy(sql`area_from NULLS FIRST`)
    .orderBy('min_quantity')
    .orderBy('id')
    .execute();
}

export async function setupCostsOf(db: Db, techniqueIds: number[]) {
  if (!techniqueIds.length) return [];
  return db
    .selectFrom('aplt_opstartkosten')
    .select([
      'id',
      'technique_id',
      'product_id',
      'description',
      'setup_cost',
      'repeat_setup_cost',
      'per_colour',
      'per_position',
      'is_active',
    ])
    .where('technique_id', 'in', techniqueIds)
    .orderBy('id')
    .execute();
}

export async function findTier(db: Db, techniqueId: number, tierId: number) {
  return db
    .selectFrom('aplt_technique_pricing')
    .select([...tierColumns])
    .where('id', '=', tierId)
    .where('technique_id', '=', techniqueId)
    .executeTakeFirst();
}

/**
 * Another scale of the technique for the same colours and quantity whose print-area range meets
 * [from, to] (null from: 0, null to: no limit): the two would both apply to one print.
 */
export async function overlappingTier(
  db: Db,
  t: {
    technique_id: number;
    colours: number | null;
    min_quantity: number;
    area_from: string | null;
    area_to: string | null;
  },
  exceptId?: number,
) {
  const r = await sql<{ id: number }>`
    SELECT id FROM aplt_technique_pricing
     WHERE technique_id = ${t.technique_id} AND colours IS NOT DISTINCT FROM ${t.colours}::int
       AND min_quantity = ${t.min_quantity}
       AND numrange(coalesce(area_from, 0), area_to, '[]')
           && numrange(coalesce(${t.area_from}::numeric, 0), ${t.area_to}::numeric, '[]')
       ${exceptId !== undefined ? sql`AND id <> ${exceptId}` : sql``}
     ORDER BY id LIMIT 1`.execute(db);
  return r.rows[0]?.id;
}

export async function insertTier(db: Db, values: NewTier) {
  return db
    .insertInto('aplt_technique_pricing')
    .values(values)
    .returning([...tierColumns])
    .executeTakeFirstOrThrow();
}

export async function updateTier(db: Db, id: number, values: TierChanges) {
  return db
    .updateTable('aplt_technique_pricing')
    .set(values)
    .where('id', '=', id)
    .returning([...tierColumns])
    .executeTakeFirstOrThrow();
}

export async function deleteTier(db: Db, id: number) {
  await db.deleteFrom('aplt_technique_pricing').where('id', '=', id).execute();
}
