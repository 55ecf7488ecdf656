import type { ApltDatabase } from '@aplt/db';
import type { App } from '@aplt/http';
import { z } from 'zod';
import { listCategories, listStoreProducts, productPrintTechniques } from './store.repository';
import { createStoreCache } from './store-cache';
import { storeCacheKey, subscribeStoreCache } from './store-cache-events';

const lang = z.enum(['nl', 'en', 'de']).default('nl');

const productSchema = z.object({
  id: z.number(),
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  brand: z.string().nullable(),
  material: z.string().nullable(),
  image_url: z.string().nullable(),
  supplier_code: z.string(),
  retail_price_100: z.string(),
  price: z.object({ quantity: z.number(), unit_price: z.string(), currency: z.literal('EUR') }),
  variants: z.array(
    z.object({
      sku: z.string(),
      color_code: z.string().nullable(),
      color_name: z.string().nullable(),
      hex: z.string().nullable(),
      stock: z.number().nullable(),
    }),
  ),
  categories: z.array(z.string()),
  /** Only with `sku=` (the product page): the techniques, positions and prices the product is printed with. */
  print_techniques: z
    .array(
      z.object({
        code: z.string(),
        name: z.string(),
        pricing_type: z.string(),
        max_colours: z.number().nullable(),
        full_colour: z.boolean(),
        positions: z.array(
          z.object({
            code: z.string(),
            name: z.string().nullable(),
            print_area: z.string().nullable(),
            max_colours: z.number().nullable(),
          }),
        ),
        setup_cost: z.string().nullable(),
        setup_per_colour: z.boolean(),
        prices: z.array(
          z.object({
            min_quantity: z.number(),
            colours: z.number().nullable(),
            price_per_unit: z.string(),
            next_colour_price: z.string().nullable(),
            area_from: z.string().nullable(),
            area_to: z.string().nullable(),
          }),
        ),
      }),
    )
    .optional(),
});

interface CategoryNode {
  id: number;
  code: string;
  slug: string;
  name: string;
  children: CategoryNode[];
}
const categoryNode: z.ZodType<CategoryNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    code: z.string(),
    slug: z.string(),
    name: z.string(),
    children: z.array(categoryNode),
  }),
);

/** Public catalog of the tenant (no authentication): only sellable products. */
export async function storeRoutes(app: App) {
  const licensed = { feature: 'products' as const };
  // Serialised answers per tenant and query string, kept a few seconds (CATALOG_STORE_CACHE_SECONDS).
  // Every replica drops a tenant's pages when any of them (or a worker) changes its catalog.
  const { config } = app.catalogDeps;
  const cache = createStoreCache(config.CATALOG_STORE_CACHE_SECONDS * 1000);
  if (cache) {
    const events = subscribeStoreCache(cache, {
      url: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      log: app.log,
    });
    app.addHook('onClose', async () => events.close());
  }
  const cached = (request: { tenant: { id: string }; url: string }) =>
    storeCacheKey(request.tenant.id, request.url);
  app.get(
    '/store/aplt/products',
    {
      config: licensed,
      schema: {
        querystring: z.object({
          q: z.string().max(200).optional(),
          category: z.string().max(100).optional(),
          sku: z.string().max(100).optional(),
          lang,
          quantity: z.coerce.number().int().min(1).max(1_000_000).default(100),
          limit: z.coerce.number().int().min(1).max(100).default(20),
          offset: z.coerce.number().int().min(0).max(100_000).default(0),
        }),
        response: {
          200: z.object({
            products: z.array(productSchema),
            count: z.number(),
            limit: z.number(),
            offset: z.number(),
          }),
        },
      },
    },
    async (request, reply) => {
      const hit = cache?.get(cached(request));
      if (hit) return reply.type('application/json; charset=utf-8').send(hit as never);
      const q = request.query;
      const { rows, count } = await listStoreProducts(
        request.server.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        q,
      );
      const db = request.server.catalogDeps.databases.aplt<ApltDatabase>(request.tenant);
      // The product page (one item number) also gets the print techniques; lists stay lean.
      const techniques =
        q.sku && rows.length === 1
          ? await productPrintTechniques(db, Number(rows[0]!.id), q.lang)
          : undefined;
      const body = {
        products: rows.map((r) => ({
          id: r.id,
          sku: r.sku,
          name: r.name,
          description: r.description,
          brand: r.brand,
          material: r.material,
          image_url: r.image_url,
          supplier_code: r.supplier_code,
          retail_price_100: r.retail_price_100,
          price: { quantity: q.quantity, unit_price: r.unit_price, currency: 'EUR' as const },
          variants: r.variants,
          categories: r.categories,
          ...(techniques ? { print_techniques: techniques } : {}),
        })),
        count,
        limit: q.limit,
        offset: q.offset,
      };
      cache?.set(cached(request), JSON.stringify(body));
      return body;
    },
  );

  app.get(
    '/store/aplt/categories',
    {
      config: licensed,
      schema: {
        querystring: z.object({ lang }),
        response: { 200: z.object({ categories: z.array(categoryNode) }) },
      },
    },
    async (request, reply) => {
      const hit = cache?.get(cached(request));
      if (hit) return reply.type('application/json; charset=utf-8').send(hit as never);
      const rows = await listCategories(
        request.server.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        request.query.lang,
      );
      const nodes = new Map<number, CategoryNode & { parent: number | null }>();
      for (const r of rows)
        nodes.set(r.id, {
          id: r.id,
          code: r.code,
          slug: r.slug,
          name: r.name,
          children: [],
          parent: r.parent_id,
        });
      const roots: CategoryNode[] = [];
      for (const n of nodes.values()) {
        const parent = n.parent !== null ? nodes.get(n.parent) : undefined;
        (parent ? parent.children : roots).push(n);
      }
      const strip = (n: CategoryNode): CategoryNode => ({
        id: n.id,
        code: n.code,
        slug: n.slug,
        name: n.name,
        children: n.children.map(strip),
      });
      const body = { categories: roots.map(strip) };
      cache?.set(cached(request), JSON.stringify(body));
      return body;
    },
  );
}
