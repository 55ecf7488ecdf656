import type {
  PriceProposalInput,
  priceProposalResponse,
} from '@aplt/service-documents/schemas/price-proposal';
import type { CreateQuotationInput, UpdateQuotationInput } from '@aplt/service-documents/schemas/quotations';
import type { FetchError } from '@medusajs/js-sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { sdk } from '../../lib/sdk';
import type { Order } from './orders';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/*
 * Quotations (`/admin/aplt/quotations`, documents service, feature `quotations`), the line
 * editor's price proposal, and the catalog's product search the editor picks products from
 * (`/admin/aplt/products`, catalog service, feature `products`).
 */

export const quotationStatuses = ['open', 'accepted', 'expired', 'rejected'] as const;
export type QuotationStatus = (typeof quotationStatuses)[number];
export const quotationSources = ['agent', 'web', 'manual', 'admin'] as const;

export interface SetupCost {
  id?: number;
  opstartkosten_id: number | null;
  technique_id: number | null;
  description: string;
  quantity: number;
  unit_cost: string;
  total: string;
  vat_rate: string;
}

export interface DocumentLine {
  id: number;
  line_no: number;
  line_type: string;
  product_id: number | null;
  variant_id: number | null;
  sku: string | null;
  description: string | null;
  quantity: number;
  unit_price: string;
  discount_percent: string;
  technique_id?: number | null;
  technique_code: string | null;
  technique_name: string | null;
  print_position_id?: number | null;
  print_position: string | null;
  print_area: string | null;
  print_colours: number | null;
  print_unit_price: string;
  vat_rate: string;
  line_total: string;
  metadata?: Record<string, unknown>;
}

export interface QuotationLine extends DocumentLine {
  setup_costs: SetupCost[];
}

export interface Quotation {
  id: number;
  quotation_number: string;
  customer_id: number | null;
  status: QuotationStatus;
  source_code: string;
  quotation_date: string;
  valid_until: string;
  reference: string | null;
  title: string | null;
  customer_email: string | null;
  customer_name: string | null;
  customer_company: string | null;
  language: string;
  subtotal: string;
  setup_cost_total: string;
  discount_total: string;
  shipping_cost: string;
  vat_total: string;
  total: string;
  terms: string | null;
  notes: string | null;
  internal_notes: string | null;
  rejection_reason: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  lines: QuotationLine[];
  /** The order the quotation became (detail only). */
  order?: { id: number; order_number: string } | null;
}

export interface Page<T> {
  data: T[];
  count: number;
  limit: number;
  offset: number;
}

export type QuotationQuery = {
  limit: number;
  offset: number;
  q?: string;
  status?: string;
  source_code?: string;
  customer_id?: string;
};

export const quotationsQueryKeys = queryKeysFactory('quotations');

export const useQuotations = (query: QuotationQuery) =>
  useAdminQuery<Page<Quotation>>('/admin/aplt/quotations', query, {
    queryKey: quotationsQueryKeys.list(query),
    placeholderData: keepPreviousData,
  });

export const useQuotation = (id: string | number) =>
  useAdminQuery<Quotation>(`/admin/aplt/quotations/${id}`, undefined, {
    queryKey: quotationsQueryKeys.detail(id),
  });

export const useCreateQuotation = () =>
  useAdminMutation(
    (body: CreateQuotationInput) => adminFetch<Quotation>('/admin/aplt/quotations', 'POST', body),
    {
      invalidates: [quotationsQueryKeys.lists()],
    },
  );

export const useUpdateQuotation = (id: number) =>
  useAdminMutation(
    (body: UpdateQuotationInput) => adminFetch<Quotation>(`/admin/aplt/quotations/${id}`, 'PUT', body),
    { invalidates: [quotationsQueryKeys.detail(id), quotationsQueryKeys.lists()] },
  );

export const useDeleteQuotation = (id: number) =>
  useAdminMutation(() => adminFetch<void>(`/admin/aplt/quotations/${id}`, 'DELETE'), {
    invalidates: [quotationsQueryKeys.lists()],
  });

/** Confirm: the quotation becomes an order (201 with the order). */
export const useConfirmQuotation = (id: number) =>
  useAdminMutation(() => adminFetch<Order>('/admin/aplt/quotations/confirm', 'POST', { id }), {
    invalidates: [
      quotationsQueryKeys.detail(id),
      quotationsQueryKeys.lists(),
      ['admin', 'orders'],
      ['admin', 'chain'],
    ],
  });

export const useRejectQuotation = (id: number) =>
  useAdminMutation(
    (reason: string) => adminFetch<Quotation>('/admin/aplt/quotations/reject', 'POST', { id, reason }),
    { invalidates: [quotationsQueryKeys.detail(id), quotationsQueryKeys.lists()] },
  );

/** What the service proposes for one line (`POST .../price-proposal`): prices, setup, VAT, franco. */
export type PriceProposal = Json<z.infer<typeof priceProposalResponse>>;

/**
 * The live price of a line as the person edits it. A read, though it is a POST: cached per
 * input, the previous answer kept while the next one loads, disabled until the input is valid.
 */
export const usePriceProposal = (input: PriceProposalInput | null) =>
  useQuery<PriceProposal, FetchError>({
    queryKey: [...quotationsQueryKeys.all, 'price-proposal', input],
    queryFn: ({ signal }) =>
      sdk.client.fetch<PriceProposal>('/admin/aplt/quotations/price-proposal', {
        method: 'POST',
        body: input as unknown as Record<string, unknown>,
        signal,
      }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/* The catalog's product search (catalog service). */

export interface CatalogTechnique {
  id: number;
  code: string;
  name: string;
  pricing_type: string;
  max_colours: number | null;
  print_area: string | null;
  is_default: boolean;
}
export interface CatalogPosition {
  id: number;
  code: string;
  name: string | null;
  print_area: string | null;
  techniques: CatalogTechnique[];
}
export interface CatalogVariant {
  id: number;
  sku: string;
  color_code: string | null;
  color_name: string | null;
  hex: string | null;
  is_active: boolean;
  stock: number | null;
}
export interface CatalogProduct {
  id: number;
  sku: string;
  name_nl: string;
  name_en: string | null;
  supplier_code: string;
  status: string;
  is_sellable: boolean;
  retail_price_100: string | null;
  min_order_quantity: number;
  image_url: string | null;
  vat_rate: string | null;
  price_tiers: Array<{ min_quantity: number; price: string }>;
  variants: CatalogVariant[];
  print_positions: CatalogPosition[];
}

export const catalogProductsQueryKeys = queryKeysFactory('catalog-products');

export const useCatalogProducts = (q: string, options: { enabled?: boolean } = {}) => {
  const query = { q, limit: 8, offset: 0 };
  return useAdminQuery<Page<CatalogProduct>>('/admin/aplt/products', query, {
    queryKey: catalogProductsQueryKeys.list(query),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    ...options,
  });
};

/** One product by id (the editor of a saved line shows its positions and techniques again). */
export const useCatalogProduct = (sku: string | null) => {
  const query = { q: sku ?? '', limit: 5, offset: 0 };
  return useAdminQuery<Page<CatalogProduct>>('/admin/aplt/products', query, {
    queryKey: catalogProductsQueryKeys.list(query),
    enabled: Boolean(sku),
    staleTime: 5 * 60_000,
  });
};
