import type { Kysely } from 'kysely';
import type { ModalDb } from '../db-types';

export interface ProductRow {
  id: string;
  sku: string;
  name: string;
  hasSvgTemplate: boolean;
  svgTemplatePath: string | null;
  imageUrl: string | null;
}

export interface VariantRow {
  sku: string;
  colorCode: string | null;
  colorName: string | null;
  hex: string | null;
}

export interface PositionTechniqueRow {
  techniqueCode: string;
  techniqueName: string;
  maxColours: number | null;
  fullColour: boolean;
  isDefault: boolean;
  positionId: string;
  positionCode: string;
  positionName: string | null;
  printArea: string | null;
  maxWidthMm: string | null;
  maxHeightMm: string | null;
  coordinates: unknown;
  hasSvgTemplate: boolean;
  svgTemplatePath: string | null;
}

/** Reads of the catalog that the master tenant's connectors fill (aplt_products and friends). */
export async function findProduct(db: Kysely<ModalDb>, baseSku: string): Promise<ProductRow | undefined> {
  const row = await db
    .selectFrom('aplt_products')
    .select(['id', 'sku', 'name_nl', 'name_en', 'has_svg_template', 'svg_template_path', 'image_url'])
    .where('sku', '=', baseSku)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: String(row.id),
    sku: row.sku,
    name: row.name_nl,
    hasSvgTemplate: row.has_svg_template,
    svgTemplatePath: row.svg_template_path,
    imageUrl: row.image_url,
  };
}

export async function listVariants(db: Kysely<ModalDb>, productId: number): Promise<VariantRow[]> {
  const rows = await db
    .selectFrom('aplt_product_variants')
    .select(['sku', 'color_code', 'color_name', 'hex'])
    .where('product_id', '=', productId)
    .where('is_active', '=', true)
    .orderBy('sku')
    .execute();
  return rows.map((r) => ({ sku: r.sku, colorCode: r.color_code, colorName: r.color_name, hex: r.hex }));
}

/** Every (technique, print position) pair the product offers, in display order. */
export async function listPositionTechniques(
  db: Kysely<ModalDb>,
  productId: number,
): Promise<PositionTechniqueRow[]> {
  const rows = await db
    .selectFrom('aplt_product_techniques as pt')
    .innerJoin('aplt_techniques as t', 't.id', 'pt.technique_id')
    .innerJoin('aplt_print_positions as pp', 'pp.id', 'pt.print_position_id')
    .select([
      't.code',
      't.name_nl',
      't.full_colour',
      't.max_colours as technique_max_colours',
      'pt.max_colours',
      'pt.is_default',
      'pp.id as position_id',
      'pp.position_code',
      'pp.position_name',
      // A technique's own print size at the position wins over the position's (largest) size.
      (eb) => eb.fn.coalesce('pt.print_area', 'pp.print_area').as('print_area'),
      (eb) => eb.fn.coalesce('pt.max_width_mm', 'pp.max_width_mm').as('max_width_mm'),
      (eb) => eb.fn.coalesce('pt.max_height_mm', 'pp.max_height_mm').as('max_height_mm'),
      'pp.coordinates',
      'pp.has_svg_template',
      'pp.svg_template_path',
    ])
    .where('pt.product_id', '=', productId)
    .where('t.is_active', '=', true)
    .orderBy('t.sort_order')
    .orderBy('t.code')
    .orderBy('pp.sort_order')
    .orderBy('pp.position_code')
    .execute();
  return rows.map((r) => ({
    techniqueCode: r.code,
    techniqueName: r.name_nl,
    maxColours: r.max_colours ?? r.technique_max_colours,
    fullColour: r.full_colour,
    isDefault: r.is_default,
    positionId: String(r.position_id),
    positionCode: r.position_code,
    positionName: r.position_name,
    printArea: r.print_area,
    maxWidthMm: r.max_width_mm,
    maxHeightMm: r.max_height_mm,
    coordinates: r.coordinates,
    hasSvgTemplate: r.has_svg_template,
    svgTemplatePath: r.svg_template_path,
  }));
}
