import type { App } from '@aplt/http';
import { z } from 'zod';
import { lineInput } from '../quotations/quotation.schemas';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, dateInput, decimalInput, idParam, listOf, errorResponses } from '../shared/schemas';
import * as service from './order.service';

const createOrderBody = z.object({
  customer_id: z.coerce.number().int().positive().optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  expected_delivery_date: dateInput.optional(),
  shipping_cost: decimalInput.optional(),
  source_code: z.enum(['agent', 'web', 'manual', 'admin']).optional(),
  lines: z.array(lineInput).min(1).max(500),
});

const updateOrderBody = z.object({
  expected_delivery_date: dateInput.nullable().optional(),
  tracking_url: z.string().url().nullable().optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  internal_notes: z.string().max(5000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const statusBody = z.object({
  id: z.coerce.number().int().positive(),
  status: z.enum(service.orderStatuses),
  tracking_url: z.string().url().optional(),
  expected_delivery_date: dateInput.optional(),
});

export function registerOrderRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('orders');
  const listQuery = z.object({
    status: z.enum(service.orderStatuses).optional(),
    customer_id: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  });

  app.get(
    '/admin/aplt/orders',
    { ...auth, schema: { querystring: listQuery, response: { ...errorResponses, 200: listOf } } },
    async (request) => {
      const data = await service.listOrders(apltDb(ctx, request), request.query);
      return { data, count: data.length };
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
    { ...auth, schema: { body: statusBody, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const { id, status, ...extra } = request.body;
      return service.changeOrderStatus(apltDb(ctx, request), id, status, extra);
    },
  );
}
