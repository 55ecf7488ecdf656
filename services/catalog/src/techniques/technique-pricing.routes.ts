import type { ApltDatabase } from '@aplt/db';
import { type App, requireActor } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireMasterAdmin } from '../master-admin';
import { auditActor } from '../shared/audit.repository';
import { errorResponses } from '../shared/error-responses';
import { recordIdParam } from '../shared/paging';
import {
  createTierBody,
  listTechniquesQuery,
  techniqueDetail,
  techniqueList,
  tierParams,
  tierResult,
  updateTierBody,
} from './technique-pricing.schemas';
import * as service from './technique-pricing.service';

/**
 * Technique pricing (feature `technique_pricing`): every tenant's admin reads its own catalog's
 * techniques and scales; only the master's admins add, change or delete scales, because the
 * tenant update copies the master's pricing over a tenant's (a change on a tenant would not last).
 */
export async function techniquePricingRoutes(app: App) {
  const licensed = { config: { feature: 'technique_pricing' as const } };
  const read = { ...licensed, preHandler: requireActor('user') };
  const write = { ...licensed, preHandler: requireMasterAdmin('Changing technique pricing') };
  const db = (request: FastifyRequest) => app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant);
  const editable = (request: FastifyRequest) => request.tenant.kind === 'master';

  app.get(
    '/admin/aplt/technique-pricing',
    {
      ...read,
      schema: { querystring: listTechniquesQuery, response: { ...errorResponses, 200: techniqueList } },
    },
    async (request) => service.listTechniques(db(request), request.query, editable(request)),
  );

  app.get(
    '/admin/aplt/technique-pricing/:id',
    { ...read, schema: { params: recordIdParam, response: { ...errorResponses, 200: techniqueDetail } } },
    async (request) => service.loadTechnique(db(request), request.params.id, editable(request)),
  );

  app.post(
    '/admin/aplt/technique-pricing/:id/tiers',
    {
      ...write,
      schema: {
        params: recordIdParam,
        body: createTierBody,
        response: { ...errorResponses, 201: tierResult },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.addTier(db(request), request.params.id, request.body, auditActor(request))),
  );

  app.put(
    '/admin/aplt/technique-pricing/:id/tiers/:tierId',
    {
      ...write,
      schema: { params: tierParams, body: updateTierBody, response: { ...errorResponses, 200: tierResult } },
    },
    async (request) =>
      service.updateTier(
        db(request),
        request.params.id,
        request.params.tierId,
        request.body,
        auditActor(request),
      ),
  );

  app.delete(
    '/admin/aplt/technique-pricing/:id/tiers/:tierId',
    { ...write, schema: { params: tierParams, response: { ...errorResponses, 204: z.null() } } },
    async (request, reply) => {
      await service.removeTier(db(request), request.params.id, request.params.tierId, auditActor(request));
      return reply.code(204).send(null);
    },
  );
}
