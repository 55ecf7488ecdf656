export interface Counts {
  inserted: number;
  updated: number;
  /** Rows that matched an existing row with the same values (not rewritten). */
  unchanged?: number;
}

/** Our SKUs: <master code>-<supplier> for the product, <product sku>.<colour> for a variant. */
export const productSku = (supplier: string, masterCode: string) =>
  `${masterCode.replace(/\./g, '_')}-${supplier}`;
export const variantSku = (base: string, colorCode: string) => `${base}.${colorCode.replace(/\./g, '_')}`;

export const nz = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const country = (v: string | undefined) => (v && /^[A-Z]{2}$/.test(v) ? v : null);
export const gtin = (v: string | undefined) => (v && /^[0-9]{8,14}$/.test(v) ? v : null);
