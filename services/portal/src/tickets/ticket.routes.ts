import type { PortalDb } from '../db';
import { type App, errorBody } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requirePortalSession } from '../auth/guards';
import type { DevProjectsClient } from './devprojects.client';
import { categories, listMessages, ticketPriorities, ticketStatuses } from './ticket.repository';
import * as tickets from './ticket.service';

const ticketBody = z.object({
  id: z.number(),
  ticket_number: z.string(),
  user_id: z.number(),
  user_email: z.string(),
  user_name: z.string(),
  tenant_id: z.string().nullable(),
  subject: z.string(),
  description: z.string(),
  category: z.enum(categories),
  priority: z.enum(ticketPriorities),
  status: z.enum(ticketStatuses),
  dev_project_id: z.number().nullable(),
  dev_project_branch: z.string().nullable(),
  dev_project_code: z.string().nullable(),
  dev_project_url: z.string().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});
const messageBody = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  user_role: z.string(),
  body: z.string(),
  created_at: z.date(),
});
const idParams = z.object({ id: z.coerce.number().int().positive() });
const tenantId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'a tenant id like acme');
const errors = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  422: errorBody,
};

export function ticketRoutes(
  app: App,
  deps: { db: PortalDb; devprojects: DevProjectsClient; portalPublicUrl?: string | undefined },
) {
  const { db } = deps;
  const signedIn = requirePortalSession(db, { secondFactor: true });
  const staff = requirePortalSession(db, { secondFactor: true, roles: ['admin', 'developer'] });
  const portalUrl = (request: FastifyRequest) =>
    (deps.portalPublicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

  app.get(
    '/api/support/tickets',
    {
      preHandler: signedIn,
      schema: {
        tags: ['support'],
        querystring: z.object({
          status: z.enum(ticketStatuses).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: z.object({ tickets: z.array(ticketBody), count: z.number() }), ...errors },
      },
    },
    async (request) => {
      const { rows, count } = await tickets.listVisibleTickets(db, request.portal!, request.query);
      return { tickets: rows, count };
    },
  );

  app.post(
    '/api/support/tickets',
    {
      preHandler: signedIn,
      schema: {
        tags: ['support'],
        body: z.object({
          subject: z.string().trim().min(1).max(255),
          description: z.string().trim().min(1).max(20_000),
          category: z.enum(categories).default('question'),
          priority: z.enum(ticketPriorities).default('normal'),
          tenant_id: tenantId.nullish(),
        }),
        response: { 201: z.object({ ticket: ticketBody }), ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ ticket: await tickets.createTicket(db, request.portal!, request.body) }),
  );

  app.get(
    '/api/support/tickets/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['support'],
        params: idParams,
        response: { 200: z.object({ ticket: ticketBody, messages: z.array(messageBody) }), ...errors },
      },
    },
    async (request) => {
      const ticket = await tickets.getVisibleTicket(db, request.portal!, request.params.id);
      return { ticket, messages: await listMessages(db, ticket.id) };
    },
  );

  app.put(
    '/api/support/tickets/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['support'],
        params: idParams,
        body: z
          .object({
            subject: z.string().trim().min(1).max(255).optional(),
            description: z.string().trim().min(1).max(20_000).optional(),
            category: z.enum(categories).optional(),
            priority: z.enum(ticketPriorities).optional(),
            status: z.enum(ticketStatuses).optional(),
            tenant_id: tenantId.nullable().optional(),
          })
          .strict(),
        response: { 200: z.object({ ticket: ticketBody }), ...errors },
      },
    },
    async (request) => ({
      ticket: await tickets.updateTicket(db, request.portal!, request.params.id, request.body),
    }),
  );

  app.post(
    '/api/support/tickets/:id/messages',
    {
      preHandler: signedIn,
      schema: {
        tags: ['support'],
        params: idParams,
        body: z.object({ body: z.string().trim().min(1).max(20_000) }),
        response: { 201: z.object({ messages: z.array(messageBody) }), ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        messages: await tickets.addMessage(db, request.portal!, request.params.id, request.body.body),
      }),
  );

  app.post(
    '/api/support/tickets/:id/create-dev-project',
    {
      preHandler: staff,
      schema: {
        tags: ['support'],
        params: idParams,
        response: {
          201: z.object({
            ticket: ticketBody,
            dev_project: z.object({
              id: z.number(),
              project_code: z.string(),
              branch_name: z.string(),
              project_type: z.string(),
              priority: z.string(),
              status: z.string(),
              version: z.string(),
              ticket_id: z.number().nullable(),
              ticket_number: z.string().nullable(),
            }),
            links: z.object({ ticket: z.string(), dev_project: z.string(), dev_project_by_id: z.string() }),
          }),
          ...errors,
          502: errorBody,
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await tickets.createDevProjectFromTicket(
            deps,
            request.portal!,
            request.params.id,
            portalUrl(request),
          ),
        ),
  );
}
