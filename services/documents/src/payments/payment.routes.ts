import type { App } from '@aplt/http';
import { z } from 'zod';
import { journalOf } from '../ledger/posting.service';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, dateInput, idParam, listOf, positiveAmount, errorResponses } from '../shared/schemas';
import * as service from './payment.service';

const paymentBody = z.object({
  customer_id: z.coerce.number().int().positive(),
  amount: positiveAmount,
  payment_date: dateInput.optional(),
  method: z.enum(['bank_transfer', 'ideal', 'card', 'cash', 'direct_debit', 'paypal', 'other']).optional(),
  reference: z.string().max(200).optional(),
  bank_account: z.string().max(64).optional(),
  notes: z.string().max(2000).optional(),
  allocations: z
    .array(z.object({ invoice_id: z.coerce.number().int().positive(), amount: positiveAmount }))
    .max(200)
    .optional(),
});

export function registerPaymentRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('payments');
  const listQuery = z.object({
    customer_id: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  });

  app.get(
    '/admin/aplt/payments',
    { ...auth, schema: { querystring: listQuery, response: { ...errorResponses, 200: listOf } } },
    async (request) => {
      const data = await service.listPayments(apltDb(ctx, request), request.query);
      return { data, count: data.length };
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
        body: z.object({ invoice_id: z.coerce.number().int().positive(), amount: positiveAmount.optional() }),
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
