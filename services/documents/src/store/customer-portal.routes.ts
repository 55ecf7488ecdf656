import { type App, forbidden, notFound } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listInvoices } from '../invoices/invoice.service';
import { convertQuotation } from '../orders/order.service';
import { quotationStatuses } from '../quotations/quotation.schemas';
import { customerQuotations, findQuotation, rejectQuotation } from '../quotations/quotation.service';
import { recordAudit } from '../shared/audit.service';
import { apltDb, commerceDb, type DocumentsContext } from '../shared/context';
import { customerRoute } from '../shared/route-options';
import { anyObject, idParam, listOf, errorResponses } from '../shared/schemas';
import { identifyCaller, ownsQuotation } from './customer-portal.service';

/**
 * Customer-portal routes (customer JWT). The caller is the commerce customer in the token; its
 * e-mail links it to aplt_customers and to quotations addressed to that e-mail. Only the
 * caller's records are ever returned or changed; someone else's id answers 404.
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
        querystring: z.object({ status: z.enum(quotationStatuses).optional() }),
        response: { ...errorResponses, 200: listOf },
      },
    },
    async (request) => {
      const who = await caller(ctx, request);
      const db = apltDb(ctx, request);
      const rows = await customerQuotations(db, who.customer?.id ?? null, who.email, request.query.status);
      const data = rows.map(({ internal_notes: _i, created_by: _c, ...q }) => q);
      return { data, count: data.length };
    },
  );

  async function ownedQuotation(request: FastifyRequest, id: number) {
    const who = await caller(ctx, request);
    const q = await findQuotation(apltDb(ctx, request), id);
    if (!q || !ownsQuotation(q, who)) throw notFound(`Quotation ${id} not found`);
    return { q, who };
  }

  app.post(
    '/store/aplt/quotes/:id/accept',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
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
        params: idParam,
        body: z.object({ reason: z.string().trim().min(1).max(2000) }),
        response: { ...errorResponses, 200: anyObject },
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

  app.get(
    '/store/aplt/invoices',
    {
      // The caller's invoices and the credit notes on them: the invoice history, one feature.
      ...customerRoute('invoices'),
      schema: {
        querystring: z.object({
          status: z.enum(['open', 'paid', 'overdue']).optional(),
          year: z.coerce.number().int().min(2000).max(9999).optional(),
        }),
        response: { ...errorResponses, 200: listOf },
      },
    },
    async (request) => {
      const who = await caller(ctx, request);
      if (!who.customer) return { data: [], count: 0 };
      if (!request.tenant) throw forbidden();
      const data = await listInvoices(apltDb(ctx, request), {
        document_type: ['invoice', 'credit_note'],
        customer_id: who.customer.id,
        status: request.query.status,
        year: request.query.year,
        limit: 200,
        offset: 0,
      });
      return { data: data.map(({ created_by: _c, metadata: _m, ...i }) => i), count: data.length };
    },
  );
}
