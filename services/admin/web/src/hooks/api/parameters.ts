import type { parametersResponse, UpdateParametersInput } from '@aplt/service-documents/schemas/parameters';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Tenant parameters (`/admin/aplt/parameters`, documents service, feature `parameters`). */
export type Parameters = Json<z.infer<typeof parametersResponse>>;
export type Parameter = Parameters['parameters'][number];

export const parametersQueryKeys = queryKeysFactory('parameters');

export const useParameters = () =>
  useAdminQuery<Parameters>('/admin/aplt/parameters', undefined, {
    queryKey: parametersQueryKeys.detail('current'),
  });

export const useUpdateParameters = () =>
  useAdminMutation(
    (body: UpdateParametersInput) => adminFetch<Parameters>('/admin/aplt/parameters', 'PUT', body),
    { invalidates: [parametersQueryKeys.all] },
  );
