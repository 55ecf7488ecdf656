import { type App, requireActor, badRequest } from '@aplt/http';
import { z } from 'zod';
import { apltDb, type DocumentsContext } from '../shared/context';
import { anyObject, errorResponses } from '../shared/schemas';
import { documentChain } from './chain.service';

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
      schema: { querystring: query, response: { ...errorResponses, 200: anyObject } },
    },
    async (request) => {
      const q = request.query;
      if (!q.number && !(q.type && q.id)) throw badRequest('Give number, or type and id');
      return documentChain(apltDb(ctx, request), q);
    },
  );
}
