import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FetchError } from '@medusajs/js-sdk';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { sdk } from '../../lib/sdk';
import { useAdminQuery } from './use-admin-query';

export const usersQueryKeys = queryKeysFactory('users');
const meKey = [...usersQueryKeys.all, 'me'] as const;

export interface AdminUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** The signed-in user (`GET /admin/users/me`); a 401 ends the session like any other. */
export const useMe = (options: { enabled?: boolean } = {}) =>
  useAdminQuery<{ user: AdminUser }>('/admin/users/me', undefined, {
    queryKey: meKey,
    staleTime: 5 * 60_000,
    ...options,
  });

/** Sign in with e-mail and password; the SDK keeps the token. A 401 here is a wrong password. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation<unknown, FetchError, { email: string; password: string }>({
    meta: { keepOn401: true },
    mutationFn: (body) => sdk.auth.login('user', 'emailpass', body),
    // Whatever an earlier user's session had cached is not this user's.
    onSuccess: () => queryClient.clear(),
  });
}

/** Asks for the reset e-mail; answers the same whether or not the address exists. */
export const useRequestPasswordReset = () =>
  useMutation<void, FetchError, { email: string }>({
    meta: { keepOn401: true },
    mutationFn: ({ email }) => sdk.auth.resetPassword('user', 'emailpass', { identifier: email }),
  });

/** Sets the new password with the e-mailed token; a 401 is a used, expired or forged link. */
export function useResetPassword() {
  return useMutation<void, FetchError, { token: string; password: string }>({
    meta: { keepOn401: true },
    mutationFn: async ({ token, password }) => {
      await sdk.auth.updateProvider('user', 'emailpass', { password }, token);
      // The reset revoked every earlier token of this account, this tab's too.
      await sdk.client.clearToken();
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation<void, FetchError, void>({
    mutationFn: () => sdk.auth.logout(),
    onSettled: () => queryClient.clear(),
  });
}
