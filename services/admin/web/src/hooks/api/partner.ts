import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/* Partner fulfilment of an order (`/admin/aplt/orders/:id/partner`, documents service, feature `orders`). */

export const partnerStates = [
  'queued',
  'sending',
  'failed',
  'pushed',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type PartnerState = (typeof partnerStates)[number];

export interface PartnerSync {
  status: PartnerState;
  partner_process_id: string | null;
  partner_document_id: string | null;
  partner_organisation_id: string | null;
  tracking_url: string | null;
  attempts: number;
  last_http_status: number | null;
  error_message: string | null;
  sent_at: string | null;
  shipped_at: string | null;
  last_polled_at: string | null;
  updated_at: string;
}

export interface OrderPartnerState {
  order_id: number;
  order_number: string;
  /** Lines of the order the partner fulfils under the tenant's settings. */
  partner_lines: number;
  /** null: never queued for the partner. */
  sync: PartnerSync | null;
}

const key = (orderId: number) => ['admin', 'orders', 'partner', orderId];

/** Refreshes every 5 s while the order waits or is being sent, so the page follows the worker. */
export const useOrderPartner = (orderId: number) =>
  useAdminQuery<OrderPartnerState>(`/admin/aplt/orders/${orderId}/partner`, undefined, {
    queryKey: key(orderId),
    refetchInterval: (q) =>
      q.state.data?.sync && ['queued', 'sending'].includes(q.state.data.sync.status) ? 5_000 : false,
  });

export const useResendToPartner = (orderId: number) =>
  useAdminMutation(
    (body: { force?: boolean }) =>
      adminFetch<OrderPartnerState>(`/admin/aplt/orders/${orderId}/partner/resend`, 'POST', body),
    { invalidates: [key(orderId), ['admin', 'orders']] },
  );

/** The tenant's partner settings (`/admin/aplt/parameters/partner`, feature `parameters`); never the password. */
export interface PartnerSettings {
  enabled: boolean;
  base_url: string | null;
  username: string | null;
  password_set: boolean;
  supplier_codes: string[];
}

export interface PartnerSettingsChange {
  enabled?: boolean;
  base_url?: string | null;
  username?: string | null;
  password?: string | null;
  supplier_codes?: string[];
}

const settingsKey = ['admin', 'parameters', 'partner'];

export const usePartnerSettings = () =>
  useAdminQuery<PartnerSettings>('/admin/aplt/parameters/partner', undefined, { queryKey: settingsKey });

export const useUpdatePartnerSettings = () =>
  useAdminMutation(
    (body: PartnerSettingsChange) =>
      adminFetch<PartnerSettings>('/admin/aplt/parameters/partner', 'PUT', body),
    { invalidates: [settingsKey, ['admin', 'parameters']] },
  );
