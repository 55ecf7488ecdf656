import type { UpdateOrderInput } from '@aplt/service-documents/schemas/orders';
import { keepPreviousData } from '@tanstack/react-query';
import { queryKeysFactory } from '../../lib/query-key-factory';
import type { Invoice } from './invoices';
import type { DocumentLine, Page } from './quotations';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/* Orders (`/admin/aplt/orders`, documents service, feature `orders`). */

export const orderStatuses = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export interface OrderLine extends DocumentLine {
  order_id: number;
  quotation_line_id: number | null;
  invoiced_quantity: number;
}

export interface Order {
  id: number;
  order_number: string;
  quotation_id: number | null;
  customer_id: number | null;
  status: OrderStatus;
  source_code: string;
  order_date: string;
  expected_delivery_date: string | null;
  tracking_url: string | null;
  /** The moves the state machine allows from this status (the API decides). */
  allowed_transitions: OrderStatus[];
  reference: string | null;
  customer_email: string | null;
  customer_name: string | null;
  customer_company: string | null;
  subtotal: string;
  setup_cost_total: string;
  discount_total: string;
  shipping_cost: string;
  vat_total: string;
  total: string;
  notes: string | null;
  internal_notes: string | null;
  confirmed_at: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  lines: OrderLine[];
}

export type OrderQuery = { limit: number; offset: number; q?: string; status?: string; customer_id?: string };

export const ordersQueryKeys = queryKeysFactory('orders');

export const useOrders = (query: OrderQuery) =>
  useAdminQuery<Page<Order>>('/admin/aplt/orders', query, {
    queryKey: ordersQueryKeys.list(query),
    placeholderData: keepPreviousData,
  });

export const useOrder = (id: string | number) =>
  useAdminQuery<Order>(`/admin/aplt/orders/${id}`, undefined, { queryKey: ordersQueryKeys.detail(id) });

const orderKeys = (id: number) => [ordersQueryKeys.detail(id), ordersQueryKeys.lists(), ['admin', 'chain']];

export const useUpdateOrder = (id: number) =>
  useAdminMutation((body: UpdateOrderInput) => adminFetch<Order>(`/admin/aplt/orders/${id}`, 'PUT', body), {
    invalidates: orderKeys(id),
  });

export interface OrderStatusChange {
  status: OrderStatus;
  tracking_url?: string;
  expected_delivery_date?: string;
}

export const useChangeOrderStatus = (id: number) =>
  useAdminMutation(
    (body: OrderStatusChange) => adminFetch<Order>('/admin/aplt/orders/status', 'POST', { id, ...body }),
    { invalidates: orderKeys(id) },
  );

/** An invoice of the whole order, or of chosen quantities of its lines. */
export const useInvoiceOrder = (id: number) =>
  useAdminMutation(
    (body: { order_lines?: Array<{ order_line_id: number; quantity: number }> }) =>
      adminFetch<Invoice>('/admin/aplt/invoices', 'POST', {
        order_id: id,
        document_type: 'invoice',
        ...body,
      }),
    { invalidates: [...orderKeys(id), ['admin', 'invoices'], ['admin', 'reports']] },
  );
