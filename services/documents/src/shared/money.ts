import Decimal from 'decimal.js';

/** Money is decimal, never binary float: every amount goes through these helpers. */
export const D = (v: Decimal.Value | null | undefined): Decimal => new Decimal(v ?? 0);

/** Commercial rounding to cents (half away from zero), as Dutch invoices expect. */
export const round2 = (v: Decimal.Value): Decimal => D(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** Numeric string for the database and API: 2 decimals for amounts. */
export const money = (v: Decimal.Value): string => round2(v).toFixed(2);

export const sum = (values: Decimal.Value[]): Decimal => values.reduce<Decimal>((a, b) => a.plus(b), D(0));

export { Decimal };
