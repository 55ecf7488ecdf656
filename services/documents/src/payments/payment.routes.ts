import type { App } from '@aplt/http';
import { z } from 'zod';
import { journalOf } from '../ledger/posting.service';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, idParam, pagedList, errorResponses } from '../shared/schemas';
import { allocateCreditBody, listPaymentsQuery, paymentBody } from './payment.schemas';
import * as service from './payment.service';

export function registerPaymentRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('payments');

  app.get(
    '/admin/aplt/payments',
    { ...auth, schema: { querystring: listPaymentsQuery, response: { ...errorResponses, 200: pagedList } } },
    async (request) => {
      const page = await service.listPayments(apltDb(ctx, request), request.query);
      return { ...page, limit: request.query.limit, offset: request.query.offset };
    },
  );
  app.get(
    '/admin/aplt/payments/:id',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      return {
        ...(await service.loadPayment(db, request.params.id)),
        journal: await journalOf(db, 'payment', request.params.id),
      };
    },
  );
  app.post(
    '/admin/aplt/payments',
    { ...auth, schema: { body: paymentBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.registerPayment(apltDb(ctx, request), request.body, actorName(request))),
  );
  app.post(
    '/admin/aplt/payments/allocate-credit',
    {
      ...auth,
      schema: {
        body: allocateCreditBody,
        response: { ...errorResponses, 201: anyObject },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.allocateCredit(apltDb(ctx, request), request.body, actorName(request))),
  );
  app.get(
    '/admin/aplt/payments/customer-credit',
    {
      ...auth,
      schema: {
        querystring: z.object({ customer_id: z.coerce.number().int().positive() }),
        response: { ...errorResponses, 200: anyObject },
      },
    },
    async (request) => service.customerCredit(apltDb(ctx, request), request.query.customer_id),
  );
}
