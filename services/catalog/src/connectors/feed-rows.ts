/**
 * The normalised rows every feed format is mapped to before import. Amounts are decimal strings
 * (never binary floats); a mapper that cannot read a row throws RowError and the row is
 * reported in aplt_connector_rejects while the run goes on.
 */
export interface ProductRow {
  masterCode: string;
  names: { nl: string; en?: string | undefined; de?: string | undefined };
  descriptions: { nl?: string | undefined; en?: string | undefined; de?: string | undefined };
  brand?: string | undefined;
  material?: string | undefined;
  dimensions?: string | undefined;
  countryOfOrigin?: string | undefined;
  categoryCode?: string | undefined;
  printable: boolean;
  numberOfPrintPositions?: number | undefined;
  images: string[];
  variants: VariantRow[];
}

export interface VariantRow {
  supplierSku: string;
  supplierVariantId?: string | undefined;
  colorCode: string;
  colorName?: string | undefined;
  colorGroup?: string | undefined;
  pmsColor?: string | undefined;
  gtin?: string | undefined;
  plcStatus?: string | undefined;
}

export interface StockRow {
  supplierSku: string;
  quantity: number;
  firstArrivalDate?: string | undefined;
  firstArrivalQty?: number | undefined;
  nextArrivalDate?: string | undefined;
  nextArrivalQty?: number | undefined;
}

export interface PriceRow {
  /** The supplier's variant SKU or master code. */
  supplierSku: string;
  currency: string;
  validUntil?: string | undefined;
  scales: Array<{ minQuantity: number; price: string }>;
}

export interface TechniqueRow {
  code: string;
  name: string;
  pricingType: 'per_colour' | 'per_position' | 'area_range' | 'colour_area_range' | 'full_colour' | 'fixed';
  setup: string;
  setupRepeat?: string | undefined;
  smallOrderCharge?: string | undefined;
  maxColours?: number | undefined;
  fullColour: boolean;
  scales: Array<{
    minQuantity: number;
    price: string;
    nextColourPrice?: string | undefined;
    areaFrom?: string | undefined;
    areaTo?: string | undefined;
    colours?: number | undefined;
  }>;
}

export interface PositionRow {
  masterCode: string;
  positionCode: string;
  positionName?: string | undefined;
  widthMm?: string | undefined;
  heightMm?: string | undefined;
  rotation?: string | undefined;
  points?: unknown;
  techniques: TechniqueAtPosition[];
}

/** A technique allowed at a position, with its own print size when the feed gives one per technique. */
export interface TechniqueAtPosition {
  code: string;
  isDefault: boolean;
  maxColours?: number | undefined;
  widthMm?: string | undefined;
  heightMm?: string | undefined;
}

export type PrintRow = { type: 'technique'; row: TechniqueRow } | { type: 'position'; row: PositionRow };

export class RowError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** "0,48", "1.234,50", "0.48", 0.48 -> "0.48"; suppliers write decimal commas. */
export function decimalString(v: unknown, field: string): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string' || v.trim() === '') throw new RowError(`${field} is missing`);
  let s = v.trim();
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(s)) throw new RowError(`${field} is not a number: ${v}`);
  return s;
}

export function optionalDecimal(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return decimalString(v, field);
}

export function intValue(v: unknown, field: string): number {
  const s = decimalString(v, field);
  const n = Number(s);
  if (!Number.isInteger(n)) throw new RowError(`${field} is not a whole number: ${String(v)}`);
  return n;
}

export function optionalInt(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return intValue(v, field);
}

export function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
}

export function requiredText(v: unknown, field: string): string {
  const s = text(v);
  if (!s) throw new RowError(`${field} is missing`);
  return s;
}

export function bool(v: unknown, fallback = false): boolean {
  if (typeof v === 'boolean') return v;
  const s = text(v)?.toLowerCase();
  if (s === undefined) return fallback;
  return ['true', '1', 'yes', 'y', 'ja'].includes(s);
}

/** A date like 2026-03-01 or 01-03-2026 or 2026-03-01T..., as YYYY-MM-DD. */
export function optionalDate(v: unknown, field: string): string | undefined {
  const s = text(v);
  if (!s) return undefined;
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})[-/.](\d{2})[-/.](\d{4})$/.exec(s);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  throw new RowError(`${field} is not a date: ${s}`);
}
