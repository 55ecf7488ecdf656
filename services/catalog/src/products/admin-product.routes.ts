import type { ApltDatabase } from '@aplt/db';
import { type App, requireActor } from '@aplt/http';
import { errorResponses } from '../shared/error-responses';
import { adminProductList, listAdminProductsQuery } from './admin-product.schemas';
import { listAdminProducts } from './admin-product.service';

/**
 * The admin's product search (feature `products`): the store route shows only sellable products
 * in one language; the line editor needs every product of the tenant's catalog with its variants,
 * scales and the techniques of each print position.
 */
export async function adminProductRoutes(app: App) {
  app.get(
    '/admin/aplt/products',
    {
      config: { feature: 'products' },
      preHandler: requireActor('user'),
      schema: { querystring: listAdminProductsQuery, response: { ...errorResponses, 200: adminProductList } },
    },
    async (request) =>
      listAdminProducts(app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant), request.query),
  );
}
