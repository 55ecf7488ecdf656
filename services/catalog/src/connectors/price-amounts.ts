import Decimal from 'decimal.js';

/** A plain non-negative decimal (what decimalString gives for any ordinary price). */
const plain = /^(\d+)(?:\.(\d+))?$/;

interface Scaled {
  /** The digits without the point. */
  n: bigint;
  /** How many of them are decimals. */
  scale: number;
}

function scaled(s: string): Scaled | null {
  const m = plain.exec(s);
  if (!m) return null;
  const frac = m[2] ?? '';
  return { n: BigInt(m[1]! + frac), scale: frac.length };
}

const pow10 = (k: number) => 10n ** BigInt(k);

/** `x` rounded half up (away from zero; x >= 0) to four decimals, as text. */
function fixed4({ n, scale }: Scaled): string {
  let q: bigint;
  if (scale <= 4) q = n * pow10(4 - scale);
  else {
    const d = pow10(scale - 4);
    q = n / d;
    if ((n % d) * 2n >= d) q += 1n;
  }
  const s = q.toString().padStart(5, '0');
  return `${s.slice(0, -4)}.${s.slice(-4)}`;
}

/**
 * Purchase and retail amounts of a price scale: the feed's price and, marked up by the margin,
 * the retail price, both rounded half up to four decimals as the batched path did with
 * decimal.js. Plain decimals are computed exactly on BigInt: decimal.js took longer for a price
 * feed's 600,000 scales than parsing the feed (a few seconds). Anything else (an exponent, a
 * negative price or margin) goes through decimal.js as before.
 */
export class PriceAmounts {
  private readonly factor: Decimal;
  private readonly fast: Scaled | null;

  constructor(marginPercent: string) {
    this.factor = new Decimal(1).plus(new Decimal(marginPercent).div(100));
    this.fast = this.factor.isNegative() ? null : scaled(this.factor.toFixed());
  }

  /** [purchase, retail] of a price as text with four decimals. */
  of(price: string): [string, string] {
    const p = this.fast ? scaled(price) : null;
    if (p && this.fast)
      return [fixed4(p), fixed4({ n: p.n * this.fast.n, scale: p.scale + this.fast.scale })];
    const d = new Decimal(price);
    return [d.toFixed(4), d.times(this.factor).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4)];
  }
}
