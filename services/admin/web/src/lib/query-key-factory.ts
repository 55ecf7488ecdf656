import type { QueryKey } from '@tanstack/react-query';

/**
 * Query keys of one API resource, the way Medusa's dashboard builds them, so a mutation can
 * invalidate "every list" or "this one detail" without knowing the hooks:
 * `all` ⊃ `lists()` ⊃ `list(query)`, and `all` ⊃ `details()` ⊃ `detail(id)`.
 */
export function queryKeysFactory<const R extends string>(resource: R) {
  const all = ['admin', resource] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (query?: Record<string, unknown>) => [...all, 'list', { ...query }] as const,
    details: () => [...all, 'detail'] as const,
    detail: (id: string | number, query?: Record<string, unknown>) =>
      [...all, 'detail', String(id), ...(query ? [query] : [])] as const,
  } satisfies Record<string, QueryKey | ((...args: never[]) => QueryKey)>;
}
