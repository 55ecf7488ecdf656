import type { App } from '@aplt/http';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, idParam, pagedList, errorResponses } from '../shared/schemas';
import { createOrderBody, listOrdersQuery, orderStatusBody, updateOrderBody } from './order.schemas';
import * as service from './order.service';

export function registerOrderRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('orders');

  app.get(
    '/admin/aplt/orders',
    { ...auth, schema: { querystring: listOrdersQuery, response: { ...errorResponses, 200: pagedList } } },
    async (request) => {
      const page = await service.listOrders(apltDb(ctx, request), request.query);
      return { ...page, limit: request.query.limit, offset: request.query.offset };
    },
  );
  app.get(
    '/admin/aplt/orders/:id',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => service.loadOrder(apltDb(ctx, request), request.params.id),
  );
  app.post(
    '/admin/aplt/orders',
    { ...auth, schema: { body: createOrderBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) =>
      reply.code(201).send(
        await service.createOrder(apltDb(ctx, request), ctx.config, request.body, {
          actor: actorName(request),
        }),
      ),
  );
  app.put(
    '/admin/aplt/orders/:id',
    {
      ...auth,
      schema: { params: idParam, body: updateOrderBody, response: { ...errorResponses, 200: anyObject } },
    },
    async (request) => service.updateOrder(apltDb(ctx, request), request.params.id, request.body),
  );
  app.delete('/admin/aplt/orders/:id', { ...auth, schema: { params: idParam } }, async (request, reply) => {
    await service.removeOrder(apltDb(ctx, request), request.params.id);
    return reply.code(204).send();
  });
  app.post(
    '/admin/aplt/orders/status',
    { ...auth, schema: { body: orderStatusBody, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const { id, status, ...extra } = request.body;
      return service.changeOrderStatus(apltDb(ctx, request), id, status, extra);
    },
  );
}
