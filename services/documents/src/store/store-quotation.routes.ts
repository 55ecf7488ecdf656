import { type App, badRequest, notFound } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { lineInput, quotationStatuses } from '../quotations/quotation.schemas';
import * as quotations from '../quotations/quotation.service';
import { recordAudit } from '../shared/audit.service';
import { apltDb, type DocumentsContext } from '../shared/context';
import { requireFeature, storeRoute } from '../shared/route-options';
import { anyObject, dateInput, decimalInput, listOf, errorResponses } from '../shared/schemas';

/**
 * Unauthenticated quotation routes for workflow automation (n8n, AI agents) behind the proxy's
 * forward auth. They may create quotations (source agent or web), change the customer-facing
 * header fields and the lines of OPEN quotations, nothing else: no status moves, prices of
 * accepted documents, internal notes or deletion of quotations. Every write is audited in the
 * same transaction as the change.
 */
const createBody = z.object({
  source_code: z.enum(['agent', 'web']).default('agent'),
  customer_id: z.coerce.number().int().positive().optional(),
  customer_email: z.string().email().optional(),
  customer_name: z.string().max(200).optional(),
  customer_company: z.string().max(200).optional(),
  title: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  valid_until: dateInput.optional(),
  lines: z.array(lineInput).max(200).default([]),
});
const updateBody = z.object({
  id: z.coerce.number().int().positive(),
  customer_email: z.string().email().optional(),
  customer_name: z.string().max(200).optional(),
  customer_company: z.string().max(200).optional(),
  title: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
  valid_until: dateInput.optional(),
});
const lineUpdateBody = z.object({
  id: z.coerce.number().int().positive(),
  quantity: z.number().int().positive().max(10_000_000).optional(),
  description: z.string().max(2000).optional(),
  unit_price: decimalInput.optional(),
  print_unit_price: decimalInput.optional(),
  discount_percent: decimalInput.optional(),
});

/** Staff-only fields never leave through the unauthenticated routes. */
function publicView<T extends Record<string, unknown>>(q: T) {
  const { internal_notes: _i, created_by: _c, ...rest } = q;
  return rest;
}

function audit(
  request: FastifyRequest,
  action: string,
  entityType: string,
  entityId: number | string,
  changes: unknown,
) {
  return {
    // Who forward auth let through, from the verified assertion (null for a whitelisted machine).
    actor: request.access && request.access.sub !== 'whitelist' ? request.access.sub : null,
    actor_type: 'automation' as const,
    action,
    entity_type: entityType,
    entity_id: entityId,
    changes,
    ip: request.ip,
    user_agent: request.headers['user-agent'] ?? null,
    request_id: request.id,
  };
}

export function registerStoreQuotationRoutes(app: App, ctx: DocumentsContext) {
  const licensed = storeRoute('quotations');

  app.get(
    '/store/aplt/quotations',
    {
      ...licensed,
      schema: {
        querystring: z.object({
          id: z.coerce.number().int().positive().optional(),
          status: z.enum(quotationStatuses).optional(),
          source_code: z.enum(['agent', 'web', 'manual', 'admin']).optional(),
          customer_email: z.string().email().optional(),
          limit: z.coerce.number().int().min(1).max(50).default(20),
        }),
        response: { ...errorResponses, 200: z.union([anyObject, listOf]) },
      },
    },
    async (request) => {
      const db = apltDb(ctx, request);
      const q = request.query;
      // The same add-on as the admin list's source filter (spec 2 quotation_source_filter).
      if (q.source_code) requireFeature(request, 'quotation_source_filter');
      if (q.id) return publicView(await quotations.loadQuotation(db, q.id));
      const data = (await quotations.listQuotations(db, { ...q, offset: 0 })).data.map(publicView);
      return { data, count: data.length };
    },
  );

  app.post(
    '/store/aplt/quotations',
    { ...licensed, schema: { body: createBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) => {
      const db = apltDb(ctx, request);
      const q = await db.transaction().execute(async (trx) => {
        const created = await quotations.createQuotation(trx, ctx.config, request.body, {
          actor: null,
          defaultSource: 'agent',
        });
        await recordAudit(
          trx,
          audit(request, 'quotation.create', 'quotation', created.id, {
            quotation_number: created.quotation_number,
            lines: created.lines.length,
            total: created.total,
          }),
        );
        return created;
      });
      return reply.code(201).send(publicView(q));
    },
  );

  app.put(
    '/store/aplt/quotations',
    { ...licensed, schema: { body: updateBody, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const { id, ...patch } = request.body;
      const q = await db.transaction().execute(async (trx) => {
        const updated = await quotations.updateQuotation(trx, ctx.config, id, patch);
        await recordAudit(trx, audit(request, 'quotation.update', 'quotation', id, patch));
        return updated;
      });
      return publicView(q);
    },
  );

  app.get(
    '/store/aplt/quotations/lines',
    {
      ...licensed,
      schema: {
        querystring: z.object({ quotation_id: z.coerce.number().int().positive() }),
        response: { ...errorResponses, 200: listOf },
      },
    },
    async (request) => {
      const q = await quotations.loadQuotation(apltDb(ctx, request), request.query.quotation_id);
      return { data: q.lines, count: q.lines.length };
    },
  );

  app.post(
    '/store/aplt/quotations/lines',
    {
      ...licensed,
      schema: {
        body: lineInput.extend({ quotation_id: z.coerce.number().int().positive() }),
        response: { ...errorResponses, 201: anyObject },
      },
    },
    async (request, reply) => {
      const db = apltDb(ctx, request);
      const { quotation_id, ...line } = request.body;
      const row = await db.transaction().execute(async (trx) => {
        const added = await quotations.addQuotationLine(trx, ctx.config, quotation_id, line);
        await recordAudit(
          trx,
          audit(request, 'quotation_line.create', 'quotation_line', added.id, { quotation_id, ...line }),
        );
        return added;
      });
      return reply.code(201).send(row);
    },
  );

  app.put(
    '/store/aplt/quotations/lines',
    { ...licensed, schema: { body: lineUpdateBody, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const { id, ...patch } = request.body;
      return db.transaction().execute(async (trx) => {
        const row = await quotations.updateQuotationLine(trx, ctx.config, id, patch);
        await recordAudit(trx, audit(request, 'quotation_line.update', 'quotation_line', id, patch));
        return row;
      });
    },
  );

  app.delete(
    '/store/aplt/quotations/lines',
    {
      ...licensed,
      schema: {
        querystring: z.object({ id: z.coerce.number().int().positive().optional() }),
        body: z.object({ id: z.coerce.number().int().positive() }).nullish(),
      },
    },
    async (request, reply) => {
      const id = request.query.id ?? request.body?.id;
      if (!id) throw badRequest('id is required (query or body)');
      const db = apltDb(ctx, request);
      await db.transaction().execute(async (trx) => {
        const line = await quotations.removeQuotationLine(trx, ctx.config, id);
        if (!line) throw notFound();
        await recordAudit(
          trx,
          audit(request, 'quotation_line.delete', 'quotation_line', id, {
            quotation_id: Number(line.quotation_id),
            sku: line.sku,
          }),
        );
      });
      return reply.code(204).send();
    },
  );
}
