import type { ApltDatabase } from '@aplt/db';
import { type TenantDatabases } from '@aplt/db';
import { type App, errorBody, requireActor } from '@aplt/http';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { adminEmail, listByStatus } from './access-request.repository';
import { checkAccess, decideRequest, requestAccess } from './gatekeeper.service';
import { visitorIp } from './visitor-ip';

const accessRequest = z.object({
  id: z.number(),
  ip_address: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  message: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'rejected']),
  approved_by: z.string().nullable(),
  approved_at: z.date().nullable(),
  created_at: z.date(),
});

const text = (max: number) => z.string().trim().max(max);

export function gatekeeperRoutes(app: App, deps: { databases: TenantDatabases; trustedProxies: string[] }) {
  const trusted = proxyaddr.compile(deps.trustedProxies);
  const isTrustedPeer = (address: string) => trusted(address, 0);
  // The whole gatekeeper is one licensed feature: the visitor's check and request, and the
  // admins' review of requests. Without it no request could be decided, so none is taken.
  const config = { feature: 'access_requests' } as const;

  app.get(
    '/store/access-check',
    {
      config,
      schema: {
        tags: ['gatekeeper'],
        response: {
          200: z.object({
            has_access: z.boolean(),
            status: z.enum(['approved', 'pending', 'rejected', 'none']),
            message: z.string(),
          }),
        },
      },
    },
    async (request) => checkAccess(deps.databases.aplt(request.tenant), visitorIp(request, isTrustedPeer)),
  );

  app.post(
    '/store/access-request',
    {
      config,
      schema: {
        tags: ['gatekeeper'],
        body: z.object({
          name: text(255).min(1),
          email: z.email().max(255),
          company: text(255),
          message: text(5000),
        }),
        response: {
          201: z.object({ id: z.number(), status: z.literal('pending'), message: z.string() }),
          409: errorBody,
          429: errorBody,
        },
      },
    },
    async (request, reply) => {
      const created = await requestAccess(
        deps.databases.aplt(request.tenant),
        visitorIp(request, isTrustedPeer),
        request.body,
      );
      return reply.status(201).send({ ...created, status: 'pending' as const });
    },
  );

  app.get(
    '/admin/aplt/access-requests',
    {
      config,
      preHandler: requireActor('user'),
      schema: {
        tags: ['gatekeeper'],
        querystring: z.object({
          status: z.enum(['pending', 'approved', 'rejected', 'all']).default('pending'),
          limit: z.coerce.number().int().min(1).max(500).default(100),
          offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        }),
        response: {
          200: z.object({
            access_requests: z.array(accessRequest),
            /** Requests with this status in all (the page is `limit` of them from `offset`). */
            count: z.number(),
            limit: z.number(),
            offset: z.number(),
          }),
        },
      },
    },
    async (request) => {
      const { status, limit, offset } = request.query;
      const { rows, count } = await listByStatus(
        deps.databases.aplt<ApltDatabase>(request.tenant),
        status,
        limit,
        offset,
      );
      return { access_requests: rows, count, limit, offset };
    },
  );

  app.put(
    '/admin/aplt/access-requests/:id',
    {
      config,
      preHandler: requireActor('user'),
      schema: {
        tags: ['gatekeeper'],
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: z.object({ status: z.enum(['approved', 'rejected']), reason: text(2000).optional() }),
        response: { 200: z.object({ access_request: accessRequest }), 404: errorBody, 409: errorBody },
      },
    },
    async (request) => {
      const actorId = request.actor?.actorId ?? 'unknown';
      // approved_by names a person: the admin's e-mail from this tenant's user table.
      const email = await adminEmail(deps.databases.commerce(request.tenant), actorId);
      const updated = await decideRequest(deps.databases.aplt(request.tenant), {
        id: request.params.id,
        status: request.body.status,
        reason: request.body.reason,
        admin: email ?? actorId,
        ip: request.ip,
        requestId: request.id,
      });
      return { access_request: updated };
    },
  );
}
