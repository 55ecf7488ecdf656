import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { HttpError, notFound } from '@aplt/http';
import type { Kysely } from 'kysely';
import type { ModalDb } from '../db-types';
import {
  findProduct,
  listPositionTechniques,
  listVariants,
  type PositionTechniqueRow,
  type ProductRow,
  type VariantRow,
} from './catalog.repository';
import { type Box, coordinatesBox, printAreaOf } from './geometry';
import { parseSku } from './sku';

export interface CatalogDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
}

/** The modal reads the master tenant's catalog: connectors import there (spec 1, architecture). */
export async function masterDb(deps: CatalogDeps): Promise<Kysely<ModalDb>> {
  const master = (await deps.registry.list()).find((t) => t.kind === 'master');
  if (!master) throw new HttpError(503, 'unavailable', 'No master tenant is registered');
  return deps.databases.aplt<ModalDb>(master);
}

export interface ConfigCheck {
  available: boolean;
  hasSvg: boolean;
  hasCoordinates: boolean;
  sku: string;
  base_sku: string;
  techniques: Array<{ code: string; name: string; print_area: string; position: string; positions: number }>;
}

export interface UsablePosition {
  code: string;
  name: string;
  printArea: string;
  box: Box;
  templatePath: string | null;
}

export interface UsableTechnique {
  code: string;
  name: string;
  maxColours: number | null;
  fullColour: boolean;
  isDefault: boolean;
  positions: UsablePosition[];
}

export interface ProductForModal {
  product: ProductRow;
  variants: VariantRow[];
  techniques: UsableTechnique[];
  hasSvg: boolean;
}

/** A position is usable when it has a print area and coordinates the modal can draw. */
function usablePosition(row: PositionTechniqueRow, product: ProductRow): UsablePosition | undefined {
  const box = coordinatesBox(row.coordinates);
  const printArea = printAreaOf(row);
  if (!box || !printArea) return undefined;
  const templatePath =
    (row.hasSvgTemplate ? row.svgTemplatePath : null) ??
    (product.hasSvgTemplate ? product.svgTemplatePath : null);
  return { code: row.positionCode, name: row.positionName ?? row.positionCode, printArea, box, templatePath };
}

function groupTechniques(rows: PositionTechniqueRow[], product: ProductRow): UsableTechnique[] {
  const byCode = new Map<string, UsableTechnique>();
  for (const row of rows) {
    const position = usablePosition(row, product);
    if (!position) continue;
    let t = byCode.get(row.techniqueCode);
    if (!t) {
      t = {
        code: row.techniqueCode,
        name: row.techniqueName,
        maxColours: row.maxColours,
        fullColour: row.fullColour,
        isDefault: row.isDefault,
        positions: [],
      };
      byCode.set(row.techniqueCode, t);
    }
    t.isDefault ||= row.isDefault;
    if (!t.positions.some((p) => p.code === position.code)) t.positions.push(position);
  }
  return [...byCode.values()];
}

export async function loadProductForModal(
  db: Kysely<ModalDb>,
  baseSku: string,
): Promise<ProductForModal | undefined> {
  const product = await findProduct(db, baseSku);
  if (!product) return undefined;
  const [variants, rows] = await Promise.all([
    listVariants(db, Number(product.id)),
    listPositionTechniques(db, Number(product.id)),
  ]);
  const hasSvg =
    (product.hasSvgTemplate && !!product.svgTemplatePath) ||
    rows.some((r) => r.hasSvgTemplate && !!r.svgTemplatePath);
  return { product, variants, techniques: groupTechniques(rows, product), hasSvg };
}

/**
 * GET /api/config-check/{sku}: available when the product has both an SVG template and print
 * coordinates. An unknown product is simply not available (the webshop shows no button).
 */
export async function configCheck(db: Kysely<ModalDb>, rawSku: string): Promise<ConfigCheck> {
  const { sku, baseSku, variantSku } = parseSku(rawSku);
  const loaded = await loadProductForModal(db, baseSku);
  const empty = {
    available: false,
    hasSvg: false,
    hasCoordinates: false,
    sku,
    base_sku: baseSku,
    techniques: [],
  };
  if (!loaded) return empty;
  if (variantSku && !loaded.variants.some((v) => v.sku === variantSku)) return empty;
  const techniques = loaded.techniques.map((t) => {
    const first = t.positions[0] as UsablePosition;
    return {
      code: t.code,
      name: t.name,
      print_area: first.printArea,
      position: first.code,
      positions: t.positions.length,
    };
  });
  const hasCoordinates = techniques.length > 0;
  return {
    available: loaded.hasSvg && hasCoordinates,
    hasSvg: loaded.hasSvg,
    hasCoordinates,
    sku,
    base_sku: baseSku,
    techniques,
  };
}

export async function requireProduct(db: Kysely<ModalDb>, rawSku: string): Promise<ProductForModal> {
  const { baseSku } = parseSku(rawSku);
  const loaded = await loadProductForModal(db, baseSku);
  if (!loaded) throw notFound(`Product ${baseSku} not found`, { sku: rawSku });
  return loaded;
}
