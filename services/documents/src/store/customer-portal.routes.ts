import { type App, notFound } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { convertQuotation } from '../orders/order.service';
import { quotationStatuses } from '../quotations/quotation.schemas';
import {
  attachLines,
  customerQuotations,
  findQuotation,
  rejectQuotation,
} from '../quotations/quotation.service';
import { recordAudit } from '../shared/audit.service';
import { apltDb, commerceDb, type DocumentsContext } from '../shared/context';
import { customerRoute } from '../shared/route-options';
import { identifyCaller, ownsQuotation } from './customer-portal.service';
import { quotationView } from './customer-views';
import { storeErrors, storeIdParam, storeRecord } from './store.schemas';

/**
 * Customer-portal quotation routes (customer JWT). The caller is the commerce customer in the
 * token; its e-mail links it to aplt_customers and to quotations addressed to that e-mail. Only
 * the caller's records are ever returned or changed; someone else's id answers 404.
 */
function caller(ctx: DocumentsContext, request: FastifyRequest) {
  return identifyCaller(commerceDb(ctx, request), apltDb(ctx, request), request.actor?.actorId);
}

export function registerCustomerPortalRoutes(app: App, ctx: DocumentsContext) {
  // Accepting a quote makes an order, but it is the quotation's workflow: quotations.
  const auth = customerRoute('quotations');

  app.get(
    '/store/aplt/quotes',
    {
      ...auth,
      schema: {
        tags: ['store'],
        summary: "The caller's quotations with lines; expiring_soon marks open ones within 3 days of expiry",
        querystring: z.object({ status: z.enum(quotationStatuses).optional() }),
        response: { ...storeErrors, 200: z.object({ data: z.array(storeRecord), count: z.number().int() }) },
      },
    },
    async (request) => {
      const who = await caller(ctx, request);
      const db = apltDb(ctx, request);
      const rows = await customerQuotations(db, who.customer?.id ?? null, who.email, request.query.status);
      const data = rows.map((q) => quotationView(q));
      return { data, count: data.length };
    },
  );

  async function ownedQuotation(request: FastifyRequest, id: number) {
    const who = await caller(ctx, request);
    const q = await findQuotation(apltDb(ctx, request), id);
    if (!q || !ownsQuotation(q, who)) throw notFound(`Quotation ${id} not found`);
    return { q, who };
  }

  app.get(
    '/store/aplt/quotes/:id',
    {
      ...auth,
      schema: {
        tags: ['store'],
        summary: 'One quotation of the caller',
        params: storeIdParam,
        response: { ...storeErrors, 200: storeRecord },
      },
    },
    async (request) => {
      const { q } = await ownedQuotation(request, request.params.id);
      const [withLines] = await attachLines(apltDb(ctx, request), [q]);
      return quotationView(withLines!);
    },
  );

  app.post(
    '/store/aplt/quotes/:id/accept',
    {
      ...auth,
      schema: {
        tags: ['store'],
        summary: 'Accept an open, still valid quotation: it becomes an order',
        params: storeIdParam,
        response: {
          ...storeErrors,
          200: z.object({ order_id: z.number().int(), order_number: z.string() }),
        },
      },
    },
    async (request) => {
      const { who } = await ownedQuotation(request, request.params.id);
      const db = apltDb(ctx, request);
      const order = await db.transaction().execute(async (trx) => {
        const converted = await convertQuotation(trx, request.params.id, {
          actor: who.email,
          requireValid: true,
        });
        await recordAudit(trx, {
          actor: who.email,
          actor_type: 'customer',
          action: 'quotation.accept',
          entity_type: 'quotation',
          entity_id: request.params.id,
          changes: { order_id: converted.id },
          ip: request.ip,
          request_id: request.id,
        });
        return converted;
      });
      return { order_id: Number(order.id), order_number: order.order_number };
    },
  );

  app.post(
    '/store/aplt/quotes/:id/reject',
    {
      ...auth,
      schema: {
        tags: ['store'],
        summary: 'Reject an open quotation with a reason',
        params: storeIdParam,
        body: z.object({ reason: z.string().trim().min(1).max(2000) }),
        response: { ...storeErrors, 200: storeRecord },
      },
    },
    async (request) => {
      const { who } = await ownedQuotation(request, request.params.id);
      const db = apltDb(ctx, request);
      const q = await db.transaction().execute(async (trx) => {
        const rejected = await rejectQuotation(trx, request.params.id, request.body.reason);
        await recordAudit(trx, {
          actor: who.email,
          actor_type: 'customer',
          action: 'quotation.reject',
          entity_type: 'quotation',
          entity_id: request.params.id,
          changes: { reason: request.body.reason },
          ip: request.ip,
          request_id: request.id,
        });
        return rejected;
      });
      return {
        id: Number(q.id),
        quotation_number: q.quotation_number,
        status: q.status,
        rejection_reason: q.rejection_reason,
      };
    },
  );
}
