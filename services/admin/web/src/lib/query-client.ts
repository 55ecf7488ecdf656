import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorStatus, isUnauthorized } from './api-error';
import { sessionExpired } from './session';

/** Mark a query or mutation whose 401 is an answer for the page, not an expired session. */
export interface AdminMeta extends Record<string, unknown> {
  /** Sign-in and password reset answer 401 for a wrong password or link: show it, stay. */
  keepOn401?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AdminMeta;
    mutationMeta: AdminMeta;
  }
}

/**
 * Data defaults: a 4xx is an answer and is not retried; a network failure or 5xx is tried
 * once more. Any 401 (token expired, revoked by a password reset, user deleted) ends the
 * session and sends the person to sign-in with the page kept.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (isUnauthorized(error) && !query.meta?.keepOn401) sessionExpired();
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => {
      if (isUnauthorized(error) && !mutation.meta?.keepOn401) sessionExpired();
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => {
        const status = errorStatus(error);
        if (status !== undefined && status < 500) return false;
        return failures < 1;
      },
    },
    mutations: { retry: false },
  },
});
