import type { BillingInterval, CreateSubscriptionInput } from '@aplt/service-documents/schemas/subscriptions';
import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { invoicesQueryKeys } from './invoices';
import type { Page } from './quotations';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/* Subscriptions and their billing (`/admin/aplt/subscriptions`, documents service, feature `subscriptions`). */

export type SubscriptionStatus = 'active' | 'scheduled' | 'paused' | 'ended';

export interface SubscriptionLine {
  id: number;
  line_no: number;
  line_type: 'product' | 'other';
  product_id: number | null;
  sku: string | null;
  description: string;
  quantity: number;
  unit_price: string;
  discount_percent: string;
  vat_rate: string;
}

export interface Subscription {
  id: number;
  customer_id: number;
  customer_company: string | null;
  customer_name: string | null;
  customer_email: string | null;
  description: string;
  interval: BillingInterval;
  start_date: string;
  end_date: string | null;
  paused_at: string | null;
  payment_term_days: number | null;
  reference: string | null;
  notes: string | null;
  status: SubscriptionStatus;
  created_at: string;
  updated_at: string;
}
export type SubscriptionListItem = Subscription & { amount_excl_vat: string };
export type SubscriptionDetail = Subscription & { lines: SubscriptionLine[] };

export interface SubscriptionInvoice {
  id: number;
  invoice_number: string;
  issue_date: string;
  due_date: string;
  subtotal: string;
  vat_total: string;
  total: string;
  period_start: string;
  period_end: string;
  billing_run_id: number | null;
}

export interface BillingRun {
  id: number;
  billing_date: string;
  trigger: 'schedule' | 'manual';
  status: 'running' | 'succeeded' | 'failed';
  created_count: number;
  skipped_count: number;
  failed_count: number;
  created: Array<{ subscription_id: number; invoice_id: number; invoice_number: string; total: string }>;
  failures: Array<{ subscription_id?: number; message: string }>;
  actor: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface BillingSettings {
  billing_enabled: boolean;
  pattern: string;
  timezone: string;
  schedule: { pattern: string | null; timezone: string | null; next_run: string | null } | null;
}

export type SubscriptionQuery = { limit: number; offset: number; q?: string; status?: string };

export const subscriptionsQueryKeys = queryKeysFactory('subscriptions');
const billingKeys = {
  settings: ['admin', 'subscriptions', 'billing-settings'] as const,
  runs: ['admin', 'subscriptions', 'billing-runs'] as const,
};

export const useSubscriptions = (query: SubscriptionQuery) =>
  useAdminQuery<Page<SubscriptionListItem>>('/admin/aplt/subscriptions', query, {
    queryKey: subscriptionsQueryKeys.list(query),
    placeholderData: keepPreviousData,
  });

export const useSubscription = (id: string | number) =>
  useAdminQuery<SubscriptionDetail>(`/admin/aplt/subscriptions/${id}`, undefined, {
    queryKey: subscriptionsQueryKeys.detail(id),
  });

export const useSubscriptionInvoices = (id: string | number) => {
  const query = { limit: 100, offset: 0 };
  return useAdminQuery<Page<SubscriptionInvoice>>(`/admin/aplt/subscriptions/${id}/invoices`, query, {
    queryKey: [...subscriptionsQueryKeys.detail(id), 'invoices'],
  });
};

export const useCreateSubscription = () =>
  useAdminMutation(
    (body: CreateSubscriptionInput) =>
      adminFetch<SubscriptionDetail>('/admin/aplt/subscriptions', 'POST', body),
    { invalidates: [subscriptionsQueryKeys.lists()] },
  );

export const useUpdateSubscription = (id: string | number) =>
  useAdminMutation(
    (body: Omit<CreateSubscriptionInput, 'paused'>) =>
      adminFetch<SubscriptionDetail>(`/admin/aplt/subscriptions/${id}`, 'PUT', body),
    { invalidates: [subscriptionsQueryKeys.detail(id), subscriptionsQueryKeys.lists()] },
  );

export const usePauseSubscription = (id: string | number) =>
  useAdminMutation(
    (pause: boolean) =>
      adminFetch<SubscriptionDetail>(
        `/admin/aplt/subscriptions/${id}/${pause ? 'pause' : 'resume'}`,
        'POST',
        {},
      ),
    { invalidates: [subscriptionsQueryKeys.detail(id), subscriptionsQueryKeys.lists()] },
  );

export const useBillingSettings = () =>
  useAdminQuery<BillingSettings>('/admin/aplt/subscriptions/settings', undefined, {
    queryKey: billingKeys.settings,
  });

export const useUpdateBillingSettings = () =>
  useAdminMutation(
    (billing_enabled: boolean) =>
      adminFetch<BillingSettings>('/admin/aplt/subscriptions/settings', 'PUT', { billing_enabled }),
    { invalidates: [billingKeys.settings] },
  );

export const useBillingRuns = () => {
  const query = { limit: 10, offset: 0 };
  return useAdminQuery<Page<BillingRun>>('/admin/aplt/subscriptions/billing-runs', query, {
    queryKey: [...billingKeys.runs, query],
  });
};

export const useRunBilling = () =>
  useAdminMutation(
    (date: string) => adminFetch<BillingRun>('/admin/aplt/subscriptions/billing-runs', 'POST', { date }),
    {
      invalidates: [billingKeys.runs, subscriptionsQueryKeys.all, invoicesQueryKeys.all],
    },
  );
