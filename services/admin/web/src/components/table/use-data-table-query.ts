import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface DataTableQueryOptions<F extends string> {
  /** Rows per page (the API's `limit`). */
  pageSize?: number;
  /** Query-string names of the list's filters, e.g. ['status', 'source']. */
  filterKeys?: readonly F[];
  /** Prefix for the URL parameters, when one page holds two tables. */
  prefix?: string;
}

export interface DataTableQuery<F extends string> {
  page: number;
  pageSize: number;
  offset: number;
  q: string;
  filters: Partial<Record<F, string>>;
  setSearch(value: string): void;
  setFilter(key: F, value: string | null): void;
  clearFilters(): void;
  setPage(page: number): void;
  /** What the list route takes: `{limit, offset, q?, ...filters}`. */
  apiQuery: { limit: number; offset: number; q?: string } & Partial<Record<F, string>>;
}

/**
 * The state of a server-paged table, kept in the URL (`?q=&page=&status=`) like Medusa's
 * dashboard does: a reload, the back button or a shared link shows the same page. Changing the
 * search or a filter goes back to page 1.
 */
export function useDataTableQuery<F extends string = never>(
  options: DataTableQueryOptions<F> = {},
): DataTableQuery<F> {
  const { pageSize = 20, filterKeys = [] as readonly F[], prefix = '' } = options;
  const [params, setParams] = useSearchParams();
  const name = useCallback((k: string) => `${prefix}${k}`, [prefix]);

  const page = Math.max(1, Number.parseInt(params.get(name('page')) ?? '1', 10) || 1);
  const q = params.get(name('q')) ?? '';
  const filterSignature = filterKeys.map((k) => `${k}=${params.get(name(k)) ?? ''}`).join('&');
  const filters = useMemo(() => {
    const out: Partial<Record<F, string>> = {};
    for (const pair of filterSignature.split('&')) {
      const [k, v] = pair.split('=') as [F, string];
      if (v) out[k] = v;
    }
    return out;
  }, [filterSignature]);

  const update = useCallback(
    (changes: Record<string, string | null>, resetPage: boolean, replace: boolean) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(name(k));
            else next.set(name(k), v);
          }
          if (resetPage) next.delete(name('page'));
          return next;
        },
        { replace },
      ),
    [name, setParams],
  );

  const offset = (page - 1) * pageSize;
  return {
    page,
    pageSize,
    offset,
    q,
    filters,
    setSearch: (value) => update({ q: value.trim() || null }, true, true),
    setFilter: (key, value) => update({ [key]: value }, true, false),
    clearFilters: () => update(Object.fromEntries([...filterKeys, 'q'].map((k) => [k, null])), true, false),
    setPage: (p) => update({ page: p <= 1 ? null : String(p) }, false, false),
    apiQuery: { limit: pageSize, offset, ...(q ? { q } : {}), ...filters },
  };
}
