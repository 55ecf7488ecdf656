import type {
  CreateCustomerInput,
  customerDetail,
  customerList,
  UpdateCustomerInput,
} from '@aplt/service-documents/schemas/customers';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Customers (`/admin/aplt/customers`, documents service, feature `customers`). */
export type CustomerList = Json<z.infer<typeof customerList>>;
export type CustomerListItem = CustomerList['data'][number];
export type CustomerDetail = Json<z.infer<typeof customerDetail>>;
export type CustomerQuery = { limit: number; offset: number; q?: string; is_active?: string; sort?: string };

export const customersQueryKeys = queryKeysFactory('customers');

export const useCustomers = (query: CustomerQuery) =>
  useAdminQuery<CustomerList>('/admin/aplt/customers', query, {
    queryKey: customersQueryKeys.list(query),
    placeholderData: (previous) => previous,
  });

export const useCustomer = (id: string | number) =>
  useAdminQuery<CustomerDetail>(`/admin/aplt/customers/${id}`, undefined, {
    queryKey: customersQueryKeys.detail(id),
  });

export const useUpdateCustomer = (id: string | number) =>
  useAdminMutation(
    (body: UpdateCustomerInput) => adminFetch<CustomerDetail>(`/admin/aplt/customers/${id}`, 'PUT', body),
    { invalidates: [customersQueryKeys.detail(id), customersQueryKeys.lists()] },
  );

export const useCreateCustomer = () =>
  useAdminMutation(
    (body: CreateCustomerInput) => adminFetch<CustomerDetail>('/admin/aplt/customers', 'POST', body),
    { invalidates: [customersQueryKeys.lists()] },
  );
