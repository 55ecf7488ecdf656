import type { App } from '@aplt/http';
import { z } from 'zod';
import { convertQuotation } from '../orders/order.service';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute, requireFeature } from '../shared/route-options';
import { anyObject, idBody, idParam, pagedList, errorResponses } from '../shared/schemas';
import { createQuotationBody, listQuotationsQuery, updateQuotationBody } from './quotation.schemas';
import * as service from './quotation.service';
import { priceProposalBody, priceProposalResponse } from './price-proposal.schemas';
import { proposePrice } from './price-proposal.service';

/** Admin quotation routes (admin JWT; licensed feature 'quotations', filter by source 'quotation_source_filter'). */
export function registerQuotationRoutes(app: App, ctx: DocumentsContext) {
  // Converting (confirm) makes an order, but it is the quotation's workflow: quotations.
  const auth = adminRoute('quotations');

  app.get(
    '/admin/aplt/quotations',
    {
      ...auth,
      schema: { querystring: listQuotationsQuery, response: { ...errorResponses, 200: pagedList } },
    },
    async (request) => {
      const q = request.query;
      // Filtering by source is a separately licensed add-on (spec 2 feature quotation_source_filter).
      if (q.source_code) requireFeature(request, 'quotation_source_filter');
      const page = await service.listQuotations(apltDb(ctx, request), q);
      return { ...page, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    '/admin/aplt/quotations/:id',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => service.loadQuotationDetail(apltDb(ctx, request), request.params.id),
  );

  app.post(
    '/admin/aplt/quotations',
    { ...auth, schema: { body: createQuotationBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) => {
      const q = await service.createQuotation(apltDb(ctx, request), ctx.config, request.body, {
        actor: actorName(request),
        // Spec 1: manual = created by staff in the admin panel; admin is only the column's
        // default for quotations that existed before sources were tracked.
        defaultSource: 'manual',
      });
      return reply.code(201).send(q);
    },
  );

  app.put(
    '/admin/aplt/quotations/:id',
    {
      ...auth,
      schema: { params: idParam, body: updateQuotationBody, response: { ...errorResponses, 200: anyObject } },
    },
    async (request) =>
      service.updateQuotation(apltDb(ctx, request), ctx.config, request.params.id, request.body),
  );

  app.delete(
    '/admin/aplt/quotations/:id',
    { ...auth, schema: { params: idParam } },
    async (request, reply) => {
      await service.removeQuotation(apltDb(ctx, request), request.params.id);
      return reply.code(204).send();
    },
  );

  // The line editor's live price: what saving this line would store, and the franco state.
  app.post(
    '/admin/aplt/quotations/price-proposal',
    {
      ...auth,
      schema: { body: priceProposalBody, response: { ...errorResponses, 200: priceProposalResponse } },
    },
    async (request) => proposePrice(apltDb(ctx, request), ctx.config, request.body),
  );

  app.post(
    '/admin/aplt/quotations/confirm',
    { ...auth, schema: { body: idBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) => {
      const order = await convertQuotation(apltDb(ctx, request), request.body.id, {
        actor: actorName(request),
      });
      return reply.code(201).send(order);
    },
  );

  app.post(
    '/admin/aplt/quotations/reject',
    {
      ...auth,
      schema: {
        body: idBody.extend({ reason: z.string().min(1).max(2000) }),
        response: { ...errorResponses, 200: anyObject },
      },
    },
    async (request) => service.rejectQuotation(apltDb(ctx, request), request.body.id, request.body.reason),
  );

  app.post(
    '/admin/aplt/quotations/expire',
    { ...auth, schema: { response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const expired = await service.expireDueQuotations(apltDb(ctx, request));
      return { expired: expired.map((e) => ({ id: Number(e.id), quotation_number: e.quotation_number })) };
    },
  );
}
