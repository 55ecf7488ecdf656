import type { Lang } from '../i18n';
import { storeSdk } from '../sdk';

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

/** `GET /store/aplt/products`: search, category (code or slug, with its children), language, paging. */
export async function listProducts(q: {
  lang: Lang;
  q?: string | undefined;
  category?: string | undefined;
  page?: number;
  quantity?: number;
}): Promise<{ products: StoreProduct[]; count: number; limit: number; offset: number }> {
  const sdk = await storeSdk();
  const page = Math.max(1, q.page ?? 1);
  return sdk.client.fetch('/store/aplt/products', {
    query: {
      lang: q.lang,
      ...(q.q ? { q: q.q.slice(0, 200) } : {}),
      ...(q.category ? { category: q.category } : {}),
      ...(q.quantity ? { quantity: q.quantity } : {}),
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
    cache: 'no-store',
  });
}

/** One product by item number (`sku=`, an exact match), priced at `quantity`. */
export async function getProduct(sku: string, lang: Lang, quantity: number): Promise<StoreProduct | null> {
  const sdk = await storeSdk();
  const { products } = await sdk.client.fetch<{ products: StoreProduct[] }>('/store/aplt/products', {
    query: { lang, sku: sku.slice(0, 100), quantity, limit: 1 },
    cache: 'no-store',
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
  const sdk = await storeSdk();
  const { categories } = await sdk.client.fetch<{ categories: CategoryNode[] }>('/store/aplt/categories', {
    query: { lang },
    cache: 'no-store',
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
