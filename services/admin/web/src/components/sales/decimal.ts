/*
 * Exact arithmetic on the API's decimal strings ("12.50", "0.4000") for what the browser adds up
 * itself: the franco state over every line, a payment's allocations, a line's estimate. Values
 * are scaled to integers of 1/10,000 (prices have at most 4 decimals) as BigInt, never floats.
 */

const SCALE = 10_000n;

/** "12.5" -> 125000n; undefined for anything that is not a plain decimal. */
export function parseDecimal(value: string | number | null | undefined): bigint | undefined {
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim().replace(',', '.');
  const m = /^(-?)(\d+)(?:\.(\d{0,4}))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole, fraction = ''] = m;
  const n = BigInt(whole!) * SCALE + BigInt(fraction.padEnd(4, '0'));
  return sign ? -n : n;
}

/** 125000n -> "12.50" (`places` decimals, half away from zero). */
export function formatDecimal(value: bigint, places = 2): string {
  const unit = 10n ** BigInt(4 - places);
  const negative = value < 0n;
  let abs = negative ? -value : value;
  abs = (abs + unit / 2n) / unit;
  const base = 10n ** BigInt(places);
  const whole = abs / base;
  const fraction = places ? `.${(abs % base).toString().padStart(places, '0')}` : '';
  return `${negative && abs !== 0n ? '-' : ''}${whole}${fraction}`;
}

/** Sum of decimal strings (unparseable ones count as 0). */
export function sumDecimals(values: Array<string | null | undefined>): bigint {
  return values.reduce<bigint>((acc, v) => acc + (parseDecimal(v) ?? 0n), 0n);
}

/** quantity x (unit + print) x (1 - discount%), rounded to cents, as the service computes a line. */
export function lineEstimate(
  quantity: number,
  unit: string | undefined,
  print: string | undefined,
  discountPercent: string | undefined,
): string | undefined {
  const u = parseDecimal(unit || '0');
  const p = parseDecimal(print || '0');
  const d = parseDecimal(discountPercent || '0');
  if (u === undefined || p === undefined || d === undefined || !Number.isInteger(quantity)) return undefined;
  // (u + p) * q is in 1/10,000; times (100% - d%) with d in 1/10,000 percent: divide once, rounding.
  const numerator = (u + p) * BigInt(quantity) * (100n * SCALE - d);
  const denominator = 100n * SCALE * 100n; // -> 1/100 (cents)
  const cents = (numerator + denominator / 2n) / denominator;
  return formatDecimal(cents * 100n);
}

/** A decimal string the API accepts for a money field, or undefined for blank input. */
export const normaliseAmount = (value: string): string | undefined => {
  const n = parseDecimal(value);
  return n === undefined ? undefined : formatDecimal(n, 2);
};
