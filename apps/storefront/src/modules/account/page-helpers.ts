import { notFound, redirect } from 'next/navigation';
import { type StoreFeature, tenantFeatures } from '@lib/data/features';
import { ApiError } from '@lib/data/store-api';
import { isLang, type Lang } from '@lib/i18n';
import { accountError, type ErrorContext } from './errors';

/** The page's language from the route, or a 404 for anything else. */
export async function pageLang(params: Promise<{ lang: string }>): Promise<Lang> {
  const { lang } = await params;
  if (!isLang(lang)) notFound();
  return lang;
}

/** A page of a feature the tenant does not have does not exist (404), like its menu item. */
export async function requireFeature(feature: StoreFeature): Promise<void> {
  if (!(await tenantFeatures()).hasFeature(feature)) notFound();
}

export type Loaded<T> = { data: T; error?: undefined } | { data?: undefined; error: string };

/**
 * Runs a page's API read: a session that is gone sends the visitor to the sign-in page, any other
 * failure becomes a message in the page's language instead of an error page.
 */
export async function load<T>(
  lang: Lang,
  read: () => Promise<T>,
  context?: ErrorContext,
): Promise<Loaded<T>> {
  try {
    return { data: await read() };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) redirect(`/${lang}/account/login?expired=1`);
    return { error: accountError(lang, err, context) };
  }
}

/** Positive integer ids from the URL; anything else is no document (404). */
export function routeId(raw: string): number {
  const n = Number(raw);
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) notFound();
  return n;
}

export function pageNumber(raw: string | undefined): number {
  return Math.min(50_000, Math.max(1, Number.parseInt(raw ?? '1', 10) || 1));
}

const locales: Record<Lang, string> = { nl: 'nl-NL', en: 'en-GB', de: 'de-DE' };
/** A date the API sends as YYYY-MM-DD (or an ISO timestamp), in the page's language. */
export function formatDate(lang: Lang, value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(locales[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}
