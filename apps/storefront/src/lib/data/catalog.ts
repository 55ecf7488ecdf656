import { TtlCache } from '../cache';
import { runtimeEnv } from '../env';
import type { Lang } from '../i18n';
import { sdkFor } from '../sdk';
import { shopRequest } from '../tenant';

export interface StoreVariant {
  sku: string;
  color_code: string | null;
  color_name: string | null;
  hex: string | null;
  stock: number | null;
}

export interface StoreProduct {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  brand: string | null;
  material: string | null;
  image_url: string | null;
  supplier_code: string;
  retail_price_100: string;
  price: { quantity: number; unit_price: string; currency: 'EUR' };
  variants: StoreVariant[];
  categories: string[];
}

export interface CategoryNode {
  id: number;
  code: string;
  slug: string;
  name: string;
  children: CategoryNode[];
}

export const PAGE_SIZE = 12;

/**
 * Catalog answers per tenant and query, reused for STOREFRONT_CACHE_SECONDS (default 10, like the
 * store API's own page cache): every shop page asks for the category tree and a product list, and
 * concurrent renders of one page then share one call. Cached answers are shared: never mutate them.
 */
const catalogCache = new TtlCache<unknown>(() => runtimeEnv.cacheSeconds() * 1000, 2000);

async function storeGet<T>(path: string, query: Record<string, string | number>): Promise<T> {
  const { apiHost } = await shopRequest();
  const params = new URLSearchParams(
    Object.entries(query)
      .map(([k, v]): [string, string] => [k, String(v)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const key = `${apiHost}${path}?${params.toString()}`;
  return catalogCache.get(key, () =>
    sdkFor(apiHost).client.fetch<T>(path, { query, cache: 'no-store' }),
  ) as Promise<T>;
}

/** `GET /store/aplt/products`: search, category (code or slug, with its children), language, paging. */
export async function listProducts(q: {
  lang: Lang;
  q?: string | undefined;
  category?: string | undefined;
  page?: number;
  quantity?: number;
}): Promise<{ products: StoreProduct[]; count: number; limit: number; offset: number }> {
  const page = Math.max(1, q.page ?? 1);
  return storeGet('/store/aplt/products', {
    lang: q.lang,
    ...(q.q ? { q: q.q.slice(0, 200) } : {}),
    ...(q.category ? { category: q.category } : {}),
    ...(q.quantity ? { quantity: q.quantity } : {}),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
}

/** One product by item number (`sku=`, an exact match), priced at `quantity`. */
export async function getProduct(sku: string, lang: Lang, quantity: number): Promise<StoreProduct | null> {
  const { products } = await storeGet<{ products: StoreProduct[] }>('/store/aplt/products', {
    lang,
    sku: sku.slice(0, 100),
    quantity,
    limit: 1,
  });
  return products.find((p) => p.sku === sku) ?? null;
}

/** The unit price at each quantity: one call per tier (the API prices one quantity per call). */
export async function priceTiers(
  sku: string,
  lang: Lang,
  quantities: number[],
): Promise<{ quantity: number; unit_price: string }[]> {
  const rows = await Promise.all(quantities.map((qty) => getProduct(sku, lang, qty)));
  return rows.flatMap((p, i) => (p ? [{ quantity: quantities[i]!, unit_price: p.price.unit_price }] : []));
}

export async function listCategories(lang: Lang): Promise<CategoryNode[]> {
  const { categories } = await storeGet<{ categories: CategoryNode[] }>('/store/aplt/categories', {
    lang,
  });
  return categories;
}

export function findCategory(nodes: CategoryNode[], key: string): CategoryNode | undefined {
  for (const n of nodes) {
    if (n.code === key || n.slug === key) return n;
    const hit = findCategory(n.children, key);
    if (hit) return hit;
  }
  return undefined;
}
