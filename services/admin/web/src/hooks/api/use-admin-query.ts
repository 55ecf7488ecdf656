import type { FetchError } from '@medusajs/js-sdk';
import {
  type QueryKey,
  useMutation,
  type UseMutationOptions,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-error';
import { sdk } from '../../lib/sdk';

export type AdminQueryOptions<T> = Omit<
  UseQueryOptions<T, FetchError, T, QueryKey>,
  'queryKey' | 'queryFn'
> & {
  /** Defaults to `[path, query]`; resource hooks pass their factory's key (see query-key-factory). */
  queryKey?: QueryKey;
};

/**
 * GET `path` through the SDK with react-query: `query` becomes the query string, the key
 * defaults to `[path, query]`. The error is the SDK's FetchError; show it with <ErrorAlert>.
 */
export function useAdminQuery<T>(
  path: string,
  query?: Record<string, unknown>,
  options: AdminQueryOptions<T> = {},
) {
  const { queryKey, ...rest } = options;
  return useQuery<T, FetchError, T, QueryKey>({
    queryKey: queryKey ?? [path, query ?? {}],
    queryFn: ({ signal }) => sdk.client.fetch<T>(path, { query, signal }),
    ...rest,
  });
}

export type AdminMutationOptions<TData, TVars> = Omit<
  UseMutationOptions<TData, FetchError, TVars>,
  'mutationFn'
> & {
  /** Query keys to invalidate after success (e.g. `quotationsQueryKeys.lists()`). */
  invalidates?: QueryKey[] | ((data: TData, vars: TVars) => QueryKey[]);
};

/**
 * A write through the SDK. After success the listed keys are invalidated. The result carries
 * `errorMessage`: the API's message (or a sentence for a network failure) to show where the
 * person acted, e.g. `<ErrorAlert error={mutation.error} />` next to the button or form.
 */
export function useAdminMutation<TData = unknown, TVars = void>(
  mutationFn: (vars: TVars) => Promise<TData>,
  options: AdminMutationOptions<TData, TVars> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const { invalidates, onSuccess, ...rest } = options;
  const mutation = useMutation<TData, FetchError, TVars>({
    mutationFn,
    ...rest,
    onSuccess: async (data, vars, ...more) => {
      const keys = typeof invalidates === 'function' ? invalidates(data, vars) : (invalidates ?? []);
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await onSuccess?.(data, vars, ...more);
    },
  });
  return { ...mutation, errorMessage: mutation.error ? errorMessage(mutation.error, t) : null };
}

/** `sdk.client.fetch` for a JSON write: `adminFetch('/admin/x', 'POST', body)`. */
export const adminFetch = <T>(path: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', body?: unknown) =>
  sdk.client.fetch<T>(path, {
    method,
    ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
  });
