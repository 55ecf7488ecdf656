import type {
  supplierDetail,
  supplierList,
  UpdateSupplierInput,
} from '@aplt/service-catalog/schemas/suppliers';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Suppliers (`/admin/aplt/suppliers`, catalog service, feature `suppliers`; changes on the master only). */
export type SupplierList = Json<z.infer<typeof supplierList>>;
export type SupplierListItem = SupplierList['data'][number];
export type SupplierDetail = Json<z.infer<typeof supplierDetail>>;
export type SupplierQuery = { limit: number; offset: number; q?: string; is_active?: string };

export const suppliersQueryKeys = queryKeysFactory('suppliers');

export const useSuppliers = (query: SupplierQuery) =>
  useAdminQuery<SupplierList>('/admin/aplt/suppliers', query, {
    queryKey: suppliersQueryKeys.list(query),
    placeholderData: (previous) => previous,
  });

export const useSupplier = (id: string | number) =>
  useAdminQuery<SupplierDetail>(`/admin/aplt/suppliers/${id}`, undefined, {
    queryKey: suppliersQueryKeys.detail(id),
  });

export const useUpdateSupplier = (id: string | number) =>
  useAdminMutation(
    (body: UpdateSupplierInput) => adminFetch<SupplierDetail>(`/admin/aplt/suppliers/${id}`, 'PUT', body),
    { invalidates: [suppliersQueryKeys.detail(id), suppliersQueryKeys.lists()] },
  );
