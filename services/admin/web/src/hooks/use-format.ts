import { useTranslation } from 'react-i18next';
import { isLanguage } from '../i18n/types';
import { formatDate, formatMoney, formatNumber, formatPercent } from '../lib/format';

/** Formatters bound to the current language: `const f = useFormat(); f.money('12.50')`. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : 'nl';
  return {
    language,
    money: (amount: Parameters<typeof formatMoney>[0], currency?: string) =>
      formatMoney(amount, language, currency),
    number: (value: Parameters<typeof formatNumber>[0], options?: Intl.NumberFormatOptions) =>
      formatNumber(value, language, options),
    percent: (value: Parameters<typeof formatPercent>[0]) => formatPercent(value, language),
    date: (value: Parameters<typeof formatDate>[0], style?: Parameters<typeof formatDate>[2]) =>
      formatDate(value, language, style),
  };
}
