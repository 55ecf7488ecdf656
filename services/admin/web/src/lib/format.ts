import { type Language, localeOf } from '../i18n/types';

/**
 * Money, numbers and dates in the person's language. Amounts come from the API as decimal
 * strings (money is never a binary float in this platform); Intl formats such a string exactly.
 */
type Decimal = number | string;
const asNumeric = (v: Decimal) => v as Intl.StringNumericLiteral | number;

export function formatMoney(
  amount: Decimal | null | undefined,
  language: Language,
  currency = 'EUR',
): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  return new Intl.NumberFormat(localeOf[language], { style: 'currency', currency }).format(asNumeric(amount));
}

export function formatNumber(
  value: Decimal | null | undefined,
  language: Language,
  options: Intl.NumberFormatOptions = {},
): string {
  if (value === null || value === undefined || value === '') return '—';
  return new Intl.NumberFormat(localeOf[language], options).format(asNumeric(value));
}

/** A percentage given as a rate in percent (21 -> "21%"). */
export function formatPercent(value: Decimal | null | undefined, language: Language): string {
  if (value === null || value === undefined || value === '') return '—';
  return new Intl.NumberFormat(localeOf[language], { style: 'percent', maximumFractionDigits: 2 }).format(
    Number(value) / 100,
  );
}

const parseDate = (value: string | Date) => {
  // A bare date (2026-03-01) is a calendar day, not midnight UTC: keep it on that day.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number);
    return new Date(y!, m! - 1, d!);
  }
  return new Date(value);
};

export function formatDate(
  value: string | Date | null | undefined,
  language: Language,
  style: 'date' | 'datetime' | 'long' = 'date',
): string {
  if (!value) return '—';
  const date = parseDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  const options: Intl.DateTimeFormatOptions =
    style === 'datetime'
      ? { dateStyle: 'medium', timeStyle: 'short' }
      : style === 'long'
        ? { dateStyle: 'long' }
        : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(localeOf[language], options).format(date);
}
