import { badRequest, conflict, notFound } from '@aplt/http';
import { isUniqueViolation } from '@aplt/db';
import { z } from 'zod';
import type { AccessApp } from '../app';
import { ACCESS_ADMIN_ROLE } from '../auth/auth.routes';
import { requireRole, requireSession } from '../auth/guards';
import type { Config } from '../config';
import type { AccessDb } from '../db';
import { redeemLoginTicket } from '../auth/login-ticket.service';
import type { ForwardAssertions } from './assertions';
import type { HostTenants } from './host-tenants';
import type { IdentityCache } from './identity-cache';
import type { DecisionMetrics } from './metrics';
import { validateHandler } from './validate.handler';
import { isValidCidr, type Whitelist } from './whitelist';
import { deleteWhitelistEntry, insertWhitelistEntry, listWhitelist } from './whitelist.repository';

interface Deps {
  db: AccessDb;
  config: Config;
  whitelist: Whitelist;
  identities: IdentityCache;
  metrics: DecisionMetrics;
  hosts: HostTenants;
  assertions: ForwardAssertions;
}

/**
 * The proxy's question "may this request through?" (validate.handler.ts). It is answered on the
 * raw server; the route here serves the same handler to inject() and lists it in the API docs.
 */
export async function validateRoutes(app: AccessApp, deps: Deps) {
  const { metrics } = deps;
  const handler = validateHandler({
    config: deps.config,
    whitelist: deps.whitelist,
    identities: deps.identities,
    metrics,
    hosts: deps.hosts,
    assertions: deps.assertions,
    log: app.log,
    redeemTicket: (r) =>
      redeemLoginTicket(deps.db, { ...r, deviceDays: deps.config.ACCESS_DEVICE_TOKEN_DAYS }),
  });
  app.addFastPath('/api/validate', handler);
  app.get('/api/validate', (request, reply) => {
    void reply.hijack();
    handler(request.raw, reply.raw);
  });

  // An operator route: direct requests to this port, or an access admin's session (app.ts).
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4').send(metrics.render()),
  );

  // Whitelist administration (CIDR ranges, IPv4 and IPv6).
  const admin = [requireSession(deps.identities), requireRole(ACCESS_ADMIN_ROLE)];
  const entry = z.object({ id: z.number(), cidr: z.string(), note: z.string().nullable() });
  app.get(
    '/api/admin/whitelist',
    { preHandler: admin, schema: { response: { 200: z.array(entry) } } },
    async () => listWhitelist(deps.db) as Promise<Array<z.infer<typeof entry>>>,
  );
  app.post(
    '/api/admin/whitelist',
    {
      preHandler: admin,
      schema: {
        body: z.object({ cidr: z.string().max(50), note: z.string().max(200).optional() }),
        response: { 201: entry },
      },
    },
    async (request, reply) => {
      if (!isValidCidr(request.body.cidr))
        throw badRequest('Not a CIDR range like 10.0.0.0/8 or 2001:db8::/32');
      try {
        const row = await insertWhitelistEntry(deps.db, {
          cidr: request.body.cidr,
          note: request.body.note ?? null,
        });
        await deps.whitelist.invalidate();
        return reply.status(201).send(row as z.infer<typeof entry>);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('This range is already whitelisted');
        throw err;
      }
    },
  );
  app.delete(
    '/api/admin/whitelist/:id',
    {
      preHandler: admin,
      schema: {
        params: z.object({ id: z.coerce.number().int() }),
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      if (!(await deleteWhitelistEntry(deps.db, request.params.id)))
        throw notFound('No such whitelist entry');
      await deps.whitelist.invalidate();
      return { ok: true as const };
    },
  );
}
