import type { PaymentInput } from '@aplt/service-documents/schemas/payments';
import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { invoicesQueryKeys } from './invoices';
import type { Page } from './quotations';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/* Payments (`/admin/aplt/payments`, documents service, feature `payments`). */

export const paymentMethods = [
  'bank_transfer',
  'ideal',
  'card',
  'cash',
  'direct_debit',
  'paypal',
  'other',
] as const;

export interface PaymentAllocation {
  id: number;
  payment_id: number;
  invoice_id: number;
  invoice_number: string;
  amount: string;
  allocated_at: string;
}

export interface Payment {
  id: number;
  payment_number: string;
  customer_id: number | null;
  customer_name: string | null;
  payment_date: string;
  amount: string;
  allocated_total: string;
  currency: string;
  method: string;
  status: 'received' | 'reversed';
  reference: string | null;
  bank_account: string | null;
  notes: string | null;
  created_at: string;
  allocations: PaymentAllocation[];
  unapplied_credit?: { id: number; amount: string; remaining_amount: string } | null;
}

export type PaymentQuery = { limit: number; offset: number; q?: string; customer_id?: string };

export const paymentsQueryKeys = queryKeysFactory('payments');

export const usePayments = (query: PaymentQuery) =>
  useAdminQuery<Page<Payment>>('/admin/aplt/payments', query, {
    queryKey: paymentsQueryKeys.list(query),
    placeholderData: keepPreviousData,
  });

export const usePayment = (id: string | number) =>
  useAdminQuery<Payment>(`/admin/aplt/payments/${id}`, undefined, { queryKey: paymentsQueryKeys.detail(id) });

/** Registers a payment and spreads it over invoices (the rest becomes customer credit). */
export const useRegisterPayment = () =>
  useAdminMutation((body: PaymentInput) => adminFetch<Payment>('/admin/aplt/payments', 'POST', body), {
    invalidates: [paymentsQueryKeys.all, invoicesQueryKeys.all, ['admin', 'chain'], ['admin', 'reports']],
  });
