/** Shapes the documents service's customer views send (services/documents/src/store/customer-views.ts). */

export interface DocumentLine {
  id: number;
  line_no: number | null;
  line_type: string;
  sku: string | null;
  description: string | null;
  quantity: number | string;
  unit_price: string | null;
  /** Printing per piece on top of unit_price (the line total holds both). */
  print_unit_price?: string | null;
  technique_name: string | null;
  print_position: string | null;
  vat_rate: string | null;
  line_total: string | null;
}

export interface Totals {
  currency: string | null;
  subtotal: string | null;
  shipping_cost: string | null;
  vat_total: string | null;
  total: string | null;
}

export interface Page<T> {
  data: T[];
  count: number;
  limit: number;
  offset: number;
}

/** Store lists page by 20 (spec 1: customer orders, 20 per page). */
export const PAGE_SIZE = 20;

export const pageQuery = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
