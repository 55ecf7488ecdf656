/*
 * Shape of a VAT identification number (format only; no VIES lookup). Browser-safe: the admin
 * panel checks the same rule before it sends a form.
 */

/** VAT prefix -> the number after the prefix, per EU member state (the formats VIES documents). */
const euFormats: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The VAT prefix of a country (Greece uses EL); undefined outside the EU. */
export const euVatPrefix = (country: string): string | undefined => {
  const prefix = country === 'GR' ? 'EL' : country;
  return euFormats[prefix] ? prefix : undefined;
};

/** Spaces, dots and dashes removed, upper case: how a VAT number is stored and compared. */
export const normaliseVatNumber = (v: string): string => v.replace(/[\s.-]/g, '').toUpperCase();

/**
 * Why `vatNumber` is not a VAT number for a customer in `country`, or null when its shape is
 * right. An EU customer's number carries its own country's prefix and that country's format (the
 * reverse-charge rule relies on the prefix); elsewhere two letters and 2-13 letters or digits.
 */
export function vatNumberProblem(vatNumber: string, country: string): string | null {
  const v = normaliseVatNumber(vatNumber);
  if (!/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(v))
    return 'expected a country prefix and 2-13 letters or digits, e.g. NL123456789B01';
  const prefix = v.slice(0, 2);
  const own = euVatPrefix(country);
  if (own && prefix !== own) return `a customer in ${country} has a VAT number starting with ${own}`;
  const format = euFormats[prefix];
  if (format && !format.test(v.slice(2))) return `not the format of a ${prefix} VAT number`;
  return null;
}
