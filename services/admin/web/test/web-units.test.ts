import { featureCatalog } from '@aplt/licensing';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/translations/en';
import { nl } from '../src/i18n/translations/nl';
import { errorMessage } from '../src/lib/api-error';
import { formatDate, formatMoney, formatPercent } from '../src/lib/format';
import { loginPath, safeRedirect } from '../src/lib/session';
import {
  featuresWithoutItem,
  sidebarGroups,
  sidebarItems,
  visibleSections,
} from '../src/navigation/sidebar-items';

/** Every leaf key of a nested texts object, as `a.b.c`. */
function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`),
  );
}

describe('the admin panel’s tables of facts', () => {
  it('has a page for exactly the sidebar items of the license catalog, with their features and groups', () => {
    const catalog = featureCatalog
      .filter((f) => f.sidebar !== null)
      .map((f) => ({ id: f.sidebar, feature: f.key, group: f.group }));
    expect(sidebarItems.map((i) => ({ id: i.id, feature: i.feature, group: i.group }))).toEqual(catalog);
    expect([...sidebarGroups]).toEqual([...new Set(featureCatalog.map((f) => f.group))]);
    expect(new Set(sidebarItems.map((i) => i.path)).size).toBe(sidebarItems.length);
    // With the features that have no page, the panel knows the whole catalog (the licenses page).
    expect(featuresWithoutItem.map((f) => ({ feature: f.feature, group: f.group }))).toEqual(
      featureCatalog.filter((f) => f.sidebar === null).map((f) => ({ feature: f.key, group: f.group })),
    );
    for (const f of featuresWithoutItem) {
      expect(nl.licenses.features[f.label]).toBeTruthy();
      expect(en.licenses.features[f.label]).toBeTruthy();
    }
  });

  it('leaves out groups without a visible item (spec 2, consumption rule 4)', () => {
    const sections = visibleSections(['01-quotations', '30-parameters', 'unknown-item']);
    expect(sections.map((s) => [s.group, s.items.map((i) => i.id)])).toEqual([
      ['sales', ['01-quotations']],
      ['system', ['30-parameters']],
    ]);
    expect(visibleSections([])).toEqual([]);
  });

  it('has Dutch and English texts for the same keys, none empty, a label for every item and group', () => {
    expect(keys(en).sort()).toEqual(keys(nl).sort());
    for (const [lang, texts] of Object.entries({ nl, en }))
      for (const k of keys(texts)) {
        const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], texts);
        expect((value as string).trim(), `${lang}:${k}`).not.toBe('');
      }
    for (const item of sidebarItems) {
      expect(nl.nav.items[item.label], item.id).toBeTruthy();
      expect(en.nav.items[item.label], item.id).toBeTruthy();
    }
    for (const g of sidebarGroups) expect(nl.nav.groups[g]).toBeTruthy();
  });
});

/** The shape of the SDK's FetchError (its module is for browsers; this test runs in Node). */
class FetchError extends Error {
  constructor(
    message: string,
    readonly statusText: string,
    readonly status: number,
  ) {
    super(message);
  }
}

describe('the admin panel’s helpers', () => {
  it('keeps sign-in redirects inside the panel', () => {
    expect(safeRedirect('/quotations?page=2')).toBe('/quotations?page=2');
    expect(safeRedirect('/app/invoices/7')).toBe('/invoices/7');
    expect(safeRedirect('/app')).toBe('/');
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'quotations',
      '/login',
      '/reset-password?token=x',
      null,
    ])
      expect(safeRedirect(bad), String(bad)).toBeNull();
    expect(loginPath('/quotations?status=open')).toBe('/login?redirect=%2Fquotations%3Fstatus%3Dopen');
    expect(loginPath('/', true)).toBe('/login?expired=1');
  });

  it('formats money exactly from decimal strings, and dates, in Dutch and English', () => {
    const nbsp = (s: string) => s.replace(/\u00a0|\u202f/g, ' ');
    expect(nbsp(formatMoney('1234.50', 'nl'))).toBe('€ 1.234,50');
    expect(nbsp(formatMoney('1234.50', 'en'))).toBe('€1,234.50');
    // More digits than a double holds: formatted from the string, not from a float.
    expect(nbsp(formatMoney('90071992547409.93', 'nl'))).toBe('€ 90.071.992.547.409,93');
    expect(formatMoney(null, 'nl')).toBe('—');
    expect(formatPercent('21', 'nl').replace(/\u00a0/g, ' ')).toBe('21%');
    expect(formatDate('2026-03-01', 'nl')).toBe('1 mrt 2026');
    expect(formatDate('2026-03-01', 'en')).toBe('1 Mar 2026');
    expect(formatDate('not a date', 'en')).toBe('—');
  });

  it('shows the API’s message of a failed call, and a sentence when there is none', () => {
    const t = ((key: string) => `t:${key}`) as never;
    expect(errorMessage(new FetchError('Invalid token', 'Unauthorized', 401), t)).toBe('Invalid token');
    expect(errorMessage(new FetchError('Bad Gateway', 'Bad Gateway', 502), t)).toBe('t:errors.network');
    expect(errorMessage(new TypeError('Failed to fetch'), t)).toBe('t:errors.network');
    expect(errorMessage(undefined, t)).toBe('t:errors.unknown');
  });
});
