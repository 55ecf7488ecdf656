import type { App } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { recordIdParam } from '../shared/paging';
import { adminRoute } from '../shared/route-options';
import { errorResponses } from '../shared/schemas';
import {
  createCustomerBody,
  customerDetail,
  customerList,
  listCustomersQuery,
  updateCustomerBody,
} from './customer.schemas';
import * as service from './customer.service';

const who = (request: FastifyRequest) => ({
  actor: actorName(request),
  request_id: request.id,
  ip: request.ip,
  user_agent: request.headers['user-agent'] ?? null,
});

/** Admin customer records (aplt_customers), licensed feature `customers`. */
export function registerCustomerRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('customers');

  app.get(
    '/admin/aplt/customers',
    {
      ...auth,
      schema: { querystring: listCustomersQuery, response: { ...errorResponses, 200: customerList } },
    },
    async (request) => service.listCustomers(apltDb(ctx, request), request.query),
  );

  app.get(
    '/admin/aplt/customers/:id',
    { ...auth, schema: { params: recordIdParam, response: { ...errorResponses, 200: customerDetail } } },
    async (request) => service.loadCustomer(apltDb(ctx, request), request.params.id),
  );

  app.post(
    '/admin/aplt/customers',
    { ...auth, schema: { body: createCustomerBody, response: { ...errorResponses, 201: customerDetail } } },
    async (request, reply) => {
      const c = await service.createCustomer(apltDb(ctx, request), request.body, who(request));
      return reply.code(201).send(c);
    },
  );

  app.put(
    '/admin/aplt/customers/:id',
    {
      ...auth,
      schema: {
        params: recordIdParam,
        body: updateCustomerBody,
        response: { ...errorResponses, 200: customerDetail },
      },
    },
    async (request) =>
      service.updateCustomer(apltDb(ctx, request), request.params.id, request.body, who(request)),
  );

  app.delete(
    '/admin/aplt/customers/:id',
    { ...auth, schema: { params: recordIdParam, response: { ...errorResponses, 204: z.null() } } },
    async (request, reply) => {
      await service.removeCustomer(apltDb(ctx, request), request.params.id, who(request));
      return reply.code(204).send(null);
    },
  );
}
