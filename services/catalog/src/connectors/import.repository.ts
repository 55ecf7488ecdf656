import { type Kysely, sql, type Transaction } from '@aplt/db';
import type { PositionRow, TechniqueRow } from './feed-rows';

type Db = Kysely<any> | Transaction<any>;
export interface Counts {
  inserted: number;
  updated: number;
  /** Rows that matched an existing row with the same values (not rewritten). */
  unchanged?: number;
}
export interface UnknownKey {
  index: number;
  reason: string;
}

/** Our SKUs: <master code>-<supplier> for the product, <product sku>.<colour> for a variant. */
export const productSku = (supplier: string, masterCode: string) =>
  `${masterCode.replace(/\./g, '_')}-${supplier}`;
export const variantSku = (base: string, colorCode: string) => `${base}.${colorCode.replace(/\./g, '_')}`;

export const nz = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const country = (v: string | undefined) => (v && /^[A-Z]{2}$/.test(v) ? v : null);
export const gtin = (v: string | undefined) => (v && /^[0-9]{8,14}$/.test(v) ? v : null);

async function counts(rows: Array<{ inserted: boolean }>): Promise<Counts> {
  const inserted = rows.filter((r) => r.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** Techniques with their price scales and setup cost (opstartkosten). */
export async function upsertTechniques(db: Db, supplier: string, rows: TechniqueRow[]): Promise<Counts> {
  const col = <T>(f: (r: TechniqueRow) => T) => rows.map(f);
  const res = await sql<{ id: number; code: string; inserted: boolean }>`
    INSERT INTO aplt_techniques (code, supplier_code, supplier_technique_id, name_nl, name_en, name_de, pricing_type, max_colours, full_colour)
    SELECT t.code, ${supplier}, split_part(t.code, '-', 2), t.name, t.name, t.name, t.pt, t.mc, t.fc
    FROM unnest(${col((r) => r.code)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.pricingType)}::text[],
      ${col((r) => nz(r.maxColours))}::int[], ${col((r) => r.fullColour)}::boolean[]) AS t(code, name, pt, mc, fc)
    ON CONFLICT (code) DO UPDATE SET name_nl = EXCLUDED.name_nl, pricing_type = EXCLUDED.pricing_type,
      max_colours = EXCLUDED.max_colours, full_colour = EXCLUDED.full_colour
    RETURNING id, code, (xmax = 0) AS inserted`.execute(db);
  const ids = new Map(res.rows.map((r) => [r.code, r.id]));
  const scales = rows.flatMap((r) => r.scales.map((s) => ({ id: ids.get(r.code) as number, r, s })));
  if (scales.length > 0) {
    const sc = <T>(f: (x: (typeof scales)[number]) => T) => scales.map(f);
    await sql`
      INSERT INTO aplt_technique_pricing (technique_id, area_from, area_to, colours, min_quantity, price_per_unit,
        next_colour_price, setup_cost, setup_repeat_cost, small_order_charge)
      SELECT * FROM unnest(${sc((x) => x.id)}::bigint[], ${sc((x) => nz(x.s.areaFrom))}::numeric[],
        ${sc((x) => nz(x.s.areaTo))}::numeric[], ${sc((x) => nz(x.s.colours))}::int[], ${sc((x) => x.s.minQuantity)}::int[],
        ${sc((x) => x.s.price)}::numeric[], ${sc((x) => nz(x.s.nextColourPrice))}::numeric[], ${sc((x) => x.r.setup)}::numeric[],
        ${sc((x) => nz(x.r.setupRepeat))}::numeric[], ${sc((x) => nz(x.r.smallOrderCharge))}::numeric[])
      ON CONFLICT ON CONSTRAINT aplt_technique_pricing_scale_key DO UPDATE SET price_per_unit = EXCLUDED.price_per_unit,
        next_colour_price = EXCLUDED.next_colour_price, setup_cost = EXCLUDED.setup_cost,
        setup_repeat_cost = EXCLUDED.setup_repeat_cost, small_order_charge = EXCLUDED.small_order_charge`.execute(
      db,
    );
  }
  await sql`
    INSERT INTO aplt_opstartkosten (technique_id, setup_cost, repeat_setup_cost, description)
    SELECT * FROM unnest(${col((r) => ids.get(r.code))}::bigint[], ${col((r) => r.setup)}::numeric[],
      ${col((r) => nz(r.setupRepeat))}::numeric[], ${col((r) => r.name)}::text[])
    ON CONFLICT ON CONSTRAINT aplt_opstartkosten_key DO UPDATE SET setup_cost = EXCLUDED.setup_cost,
      repeat_setup_cost = EXCLUDED.repeat_setup_cost`.execute(db);
  return counts(res.rows);
}

/** Print positions of products and which techniques each allows; unknown products or techniques are reported. */
export async function upsertPositions(
  db: Db,
  supplier: string,
  rows: PositionRow[],
): Promise<Counts & { unknown: UnknownKey[] }> {
  const col = <T>(f: (r: PositionRow) => T) => rows.map(f);
  const area = (r: { widthMm?: string | undefined; heightMm?: string | undefined }) =>
    r.widthMm && r.heightMm ? `${r.widthMm}x${r.heightMm}` : null;
  const res = await sql<{
    idx: number;
    id: number | null;
    product_id: number | null;
    inserted: boolean | null;
  }>`
    WITH input AS (
      SELECT * FROM unnest(${rows.map((_, i) => i)}::int[], ${col((r) => r.masterCode)}::text[], ${col((r) => r.positionCode)}::text[],
        ${col((r) => nz(r.positionName))}::text[], ${col((r) => nz(r.widthMm))}::numeric[], ${col((r) => nz(r.heightMm))}::numeric[],
        ${col(area)}::text[], ${col((r) => nz(r.rotation))}::numeric[], ${col((r) => (r.points ? JSON.stringify(r.points) : null))}::jsonb[])
        AS t(idx, master, code, name, w, h, area, rot, points)
    ), resolved AS (
      SELECT i.*, p.id AS product_id FROM input i
      LEFT JOIN aplt_products p ON p.supplier_code = ${supplier} AND p.supplier_sku = i.master
    ), written AS (
      INSERT INTO aplt_print_positions (product_id, position_code, position_name, max_width_mm, max_height_mm, print_area, rotation, coordinates)
      SELECT product_id, code, name, w, h, area, rot, points FROM resolved WHERE product_id IS NOT NULL
      ON CONFLICT (product_id, position_code) DO UPDATE SET position_name = EXCLUDED.position_name,
        max_width_mm = EXCLUDED.max_width_mm, max_height_mm = EXCLUDED.max_height_mm, print_area = EXCLUDED.print_area,
        rotation = EXCLUDED.rotation, coordinates = coalesce(EXCLUDED.coordinates, aplt_print_positions.coordinates)
      RETURNING id, product_id, position_code, (xmax = 0) AS inserted
    )
    SELECT r.idx, w.id, r.product_id, w.inserted FROM resolved r
    LEFT JOIN written w ON w.product_id = r.product_id AND w.position_code = r.code`.execute(db);
  const links = res.rows.flatMap((r) =>
    r.id === null
      ? []
      : (rows[r.idx] as PositionRow).techniques.map((t) => ({
          pos: r.id as number,
          product: r.product_id as number,
          t,
        })),
  );
  const unknown: UnknownKey[] = res.rows
    .filter((r) => r.product_id === null)
    .map((r) => ({
      index: r.idx,
      reason: 'unknown product: no product of this supplier has this master code',
    }));
  if (links.length > 0) {
    const lc = <T>(f: (x: (typeof links)[number]) => T) => links.map(f);
    const missing = await sql<{ code: string }>`
      WITH written AS (
        INSERT INTO aplt_product_techniques (product_id, technique_id, print_position_id, max_colours, is_default,
          max_width_mm, max_height_mm, print_area)
        SELECT l.product_id, t.id, l.pos, l.mc, l.def, l.w, l.h, l.area
        FROM unnest(${lc((x) => x.product)}::bigint[], ${lc((x) => x.pos)}::bigint[], ${lc((x) => x.t.code)}::text[],
          ${lc((x) => nz(x.t.maxColours))}::int[], ${lc((x) => x.t.isDefault)}::boolean[],
          ${lc((x) => nz(x.t.widthMm))}::numeric[], ${lc((x) => nz(x.t.heightMm))}::numeric[], ${lc((x) => area(x.t))}::text[])
          AS l(product_id, pos, code, mc, def, w, h, area)
        JOIN aplt_techniques t ON t.code = l.code
        ON CONFLICT (product_id, technique_id, print_position_id) DO UPDATE SET max_colours = EXCLUDED.max_colours,
          is_default = EXCLUDED.is_default, max_width_mm = EXCLUDED.max_width_mm, max_height_mm = EXCLUDED.max_height_mm,
          print_area = EXCLUDED.print_area
        RETURNING technique_id
      )
      SELECT DISTINCT code FROM unnest(${lc((x) => x.t.code)}::text[]) AS c(code)
      WHERE NOT EXISTS (SELECT 1 FROM aplt_techniques t WHERE t.code = c.code)`.execute(db);
    // A position allows the largest size of its techniques (each keeps its own on the link).
    await sql`
      UPDATE aplt_print_positions pp SET max_width_mm = x.w, max_height_mm = x.h, print_area = trim_scale(x.w) || 'x' || trim_scale(x.h)
      FROM (SELECT print_position_id, max(max_width_mm) AS w, max(max_height_mm) AS h FROM aplt_product_techniques
            WHERE print_position_id = ANY(${[...new Set(lc((x) => x.pos))]}::bigint[]) AND print_area IS NOT NULL
            GROUP BY print_position_id) x
      WHERE pp.id = x.print_position_id AND (pp.max_width_mm, pp.max_height_mm) IS DISTINCT FROM (x.w, x.h)`.execute(
      db,
    );
    const missingCodes = new Set(missing.rows.map((m) => m.code));
    rows.forEach((r, index) => {
      const bad = r.techniques.filter((t) => missingCodes.has(t.code));
      if (bad.length)
        unknown.push({ index, reason: `unknown technique ${bad.map((b) => b.code).join(', ')}` });
    });
  }
  const known = res.rows.filter((r) => r.id !== null);
  return { ...(await counts(known.map((r) => ({ inserted: !!r.inserted })))), unknown };
}
