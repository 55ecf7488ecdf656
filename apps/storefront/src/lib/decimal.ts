/** Decimal strings times whole quantities without floats (money is a string in the API). */
export function timesQuantity(amount: string, quantity: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) throw new Error(`not a decimal: ${amount}`);
  const scale = (m[3] ?? '').length;
  const units = BigInt(`${m[1]}${m[2]}${m[3] ?? ''}`) * BigInt(quantity);
  // Round half away from zero to cents.
  const factor = 10n ** BigInt(Math.max(0, scale - 2));
  let cents = scale >= 2 ? units / factor : units * 10n ** BigInt(2 - scale);
  if (scale > 2) {
    const rest = (units < 0n ? -units : units) % factor;
    if (rest * 2n >= factor) cents += units < 0n ? -1n : 1n;
  }
  const neg = cents < 0n;
  const abs = (neg ? -cents : cents).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}
