import { type App, requireActor, badRequest } from '@aplt/http';
import { z } from 'zod';
import { apltDb, type DocumentsContext } from '../shared/context';
import { hasFeature, requireFeature } from '../shared/route-options';
import { anyObject, errorResponses } from '../shared/schemas';
import { docTypeFeature, docTypeOfNumber, documentChain } from './chain.service';
import type { DocType } from './relation.repository';

const query = z.object({
  type: z.enum(['quotation', 'order', 'invoice', 'proforma', 'credit_note', 'payment']).optional(),
  id: z.coerce.number().int().positive().optional(),
  number: z
    .string()
    .regex(/^[QOFCPB]-\d{4}-\d{4,}$/)
    .optional(),
});

export function registerChainRoutes(app: App, ctx: DocumentsContext) {
  app.get(
    '/admin/aplt/document-chain',
    {
      preHandler: requireActor('user'),
      config: {
        feature: null,
        featureReason:
          'spans five features: the handler demands the feature of the starting document and leaves out documents of features the tenant lacks',
      },
      schema: { querystring: query, response: { ...errorResponses, 200: anyObject } },
    },
    async (request) => {
      const q = request.query;
      const startType = q.number ? docTypeOfNumber(q.number) : q.id ? q.type : undefined;
      if (!startType) throw badRequest('Give number, or type and id');
      // Decided on the type the caller names, before any lookup: an unlicensed type reveals
      // nothing about which of its numbers exist.
      requireFeature(request, docTypeFeature[startType]);
      const licensed = (type: DocType) => hasFeature(request, docTypeFeature[type]);
      return documentChain(apltDb(ctx, request), q, licensed);
    },
  );
}
