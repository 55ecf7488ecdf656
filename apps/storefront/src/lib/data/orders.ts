import { type DocumentLine, type Page, pageQuery, type Totals } from './documents';
import { storeJson } from './store-api';

export const orderStatuses = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export interface Order extends Totals {
  id: number;
  order_number: string;
  status: OrderStatus;
  order_date: string | null;
  expected_delivery_date: string | null;
  /** Only ever an http(s) address (the API drops anything else). */
  tracking_url: string | null;
  quotation_id: number | null;
  reference: string | null;
  lines: DocumentLine[];
}

export function listOrders(page: number, status?: OrderStatus): Promise<Page<Order>> {
  return storeJson('/store/aplt/orders', { query: { status, ...pageQuery(page) } });
}

export const getOrder = (id: number) => storeJson<Order>(`/store/aplt/orders/${id}`);
