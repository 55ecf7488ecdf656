import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { useAdminQuery } from './use-admin-query';

/* Reports (`/admin/aplt/reports/*`, documents service, feature `reports`). */

/** The documents service's buckets: due date not passed, then days past the due date. */
export const agingBuckets = ['not_yet_due', '0-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof agingBuckets)[number];
export const reportPeriods = ['month', 'quarter', 'year'] as const;
export type ReportPeriod = (typeof reportPeriods)[number];

export interface Dashboard {
  as_of: string;
  open_quotations_value: string;
  open_quotations_count: number;
  conversion_rate: string;
  quotations_created: number;
  quotations_accepted: number;
  revenue_this_month: string;
  overdue_amount: string;
  overdue_invoices: number;
  receivables_total: string;
}

export interface AgedReceivables {
  as_of: string;
  buckets: Record<AgingBucket, string>;
  not_yet_due: string;
  total: string;
  customers: Array<
    { customer_id: number; customer: string | null; total: string } & Record<AgingBucket, string>
  >;
  invoices: Array<{
    id: number;
    invoice_number: string;
    customer_id: number;
    customer: string | null;
    issue_date: string;
    due_date: string;
    total: string;
    outstanding: string;
    days_overdue: number;
    bucket: AgingBucket;
  }>;
}

export interface Revenue {
  from: string;
  to: string;
  period: ReportPeriod;
  total: string;
  data: Array<{
    period: string;
    invoiced: string;
    credited: string;
    net_revenue: string;
    invoices: number;
    credit_notes: number;
  }>;
}

export interface VatReport {
  from: string;
  to: string;
  period: ReportPeriod;
  vat_total: string;
  data: Array<{
    period: string;
    vat_category: string;
    vat_rate: string;
    taxable_amount: string;
    vat_amount: string;
  }>;
}

export type PeriodQuery = { from: string; to: string; period: ReportPeriod };

export const reportsQueryKeys = queryKeysFactory('reports');

export const useDashboard = (asOf: string) =>
  useAdminQuery<Dashboard>(
    '/admin/aplt/reports/dashboard',
    { as_of: asOf },
    {
      queryKey: reportsQueryKeys.detail('dashboard', { asOf }),
    },
  );

export const useAgedReceivables = (asOf: string) =>
  useAdminQuery<AgedReceivables>(
    '/admin/aplt/reports/aged-receivables',
    { as_of: asOf },
    {
      queryKey: reportsQueryKeys.detail('aged-receivables', { asOf }),
      placeholderData: keepPreviousData,
    },
  );

export const useRevenue = (query: PeriodQuery) =>
  useAdminQuery<Revenue>('/admin/aplt/reports/revenue', query, {
    queryKey: reportsQueryKeys.detail('revenue', query),
    placeholderData: keepPreviousData,
  });

export const useVatReport = (query: PeriodQuery) =>
  useAdminQuery<VatReport>('/admin/aplt/reports/vat', query, {
    queryKey: reportsQueryKeys.detail('vat', query),
    placeholderData: keepPreviousData,
  });
