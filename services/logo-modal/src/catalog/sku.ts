import { badRequest } from '@aplt/http';

const SKU = /^(\d{3}-\d{2})(\.\d{3})?$/;

export interface ParsedSku {
  sku: string;
  baseSku: string;
  /** The full variant SKU when one was given. */
  variantSku: string | null;
}

/** Base SKU NNN-NN or variant SKU NNN-NN.NNN (spec 3); anything else is the caller's mistake. */
export function parseSku(raw: string): ParsedSku {
  const sku = raw.trim();
  const m = SKU.exec(sku);
  if (!m) {
    throw badRequest('SKU must be a base SKU NNN-NN or a variant SKU NNN-NN.NNN', { sku: raw });
  }
  return { sku, baseSku: m[1] as string, variantSku: m[2] ? sku : null };
}

export const isSku = (raw: string): boolean => SKU.test(raw.trim());
