import type { adminProductList } from '@aplt/service-catalog/schemas/products';
import type { z } from 'zod';
import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { useAdminQuery } from './use-admin-query';

/** The catalog's products (`/admin/aplt/products`, catalog service, feature `products`). */
export type ProductList = Json<z.infer<typeof adminProductList>>;
export type Product = ProductList['data'][number];
export type ProductQuery = {
  limit: number;
  offset: number;
  q?: string;
  supplier_code?: string;
  sellable?: string;
};

export const productsQueryKeys = queryKeysFactory('products');

export const useProducts = (query: ProductQuery, options: { enabled?: boolean } = {}) =>
  useAdminQuery<ProductList>('/admin/aplt/products', query, {
    queryKey: productsQueryKeys.list(query),
    placeholderData: (previous) => previous,
    ...options,
  });
