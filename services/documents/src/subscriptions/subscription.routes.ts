import type { App } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, errorResponses, pagedList } from '../shared/schemas';
import { pageQuery } from '../shared/paging';
import { BILLING_PATTERN, BILLING_TIMEZONE, billingSchedule, syncBillingSchedule } from './billing.scheduler';
import * as billing from './billing.service';
import {
  billingSettingsBody,
  createSubscriptionBody,
  listRunsQuery,
  listSubscriptionsQuery,
  runBillingBody,
  subscriptionIdParam,
  updateSubscriptionBody,
} from './subscription.schemas';
import * as service from './subscription.service';

const who = (request: FastifyRequest): service.Who => ({
  actor: actorName(request),
  request_id: request.id,
  ip: request.ip,
  user_agent: request.headers['user-agent'] ?? null,
});

const billingSettings = z.object({
  billing_enabled: z.boolean(),
  pattern: z.string(),
  timezone: z.string(),
  /** The scheduler as Redis holds it (null: none, or this process has no queue connection). */
  schedule: z
    .object({
      pattern: z.string().nullable(),
      timezone: z.string().nullable(),
      next_run: z.string().nullable(),
    })
    .nullable(),
});

/**
 * Subscriptions (licensed feature `subscriptions`): manage them, read their invoices and the
 * billing runs, switch the monthly billing job on or off for the tenant, and run the billing for
 * a chosen date (staff catch-up).
 */
export function registerSubscriptionRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('subscriptions');

  const settingsOf = async (request: FastifyRequest) => ({
    billing_enabled: await service.isBillingEnabled(apltDb(ctx, request)),
    pattern: BILLING_PATTERN,
    timezone: BILLING_TIMEZONE,
    schedule: ctx.queues ? await billingSchedule(ctx.queues, request.tenant.id) : null,
  });

  app.get(
    '/admin/aplt/subscriptions',
    {
      ...auth,
      schema: { querystring: listSubscriptionsQuery, response: { ...errorResponses, 200: pagedList } },
    },
    async (request) => {
      const page = await service.listSubscriptions(apltDb(ctx, request), request.query);
      return { ...page, limit: request.query.limit, offset: request.query.offset };
    },
  );
  app.post(
    '/admin/aplt/subscriptions',
    { ...auth, schema: { body: createSubscriptionBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createSubscription(apltDb(ctx, request), request.body, who(request))),
  );

  app.get(
    '/admin/aplt/subscriptions/settings',
    { ...auth, schema: { response: { ...errorResponses, 200: billingSettings } } },
    async (request) => settingsOf(request),
  );
  app.put(
    '/admin/aplt/subscriptions/settings',
    { ...auth, schema: { body: billingSettingsBody, response: { ...errorResponses, 200: billingSettings } } },
    async (request) => {
      const enabled = request.body.billing_enabled;
      await service.setBillingEnabled(apltDb(ctx, request), enabled, who(request));
      // After the commit: if Redis fails here, the next start-up puts the scheduler right.
      if (ctx.queues) await syncBillingSchedule(ctx.queues, request.tenant.id, enabled);
      return settingsOf(request);
    },
  );

  app.get(
    '/admin/aplt/subscriptions/billing-runs',
    { ...auth, schema: { querystring: listRunsQuery, response: { ...errorResponses, 200: pagedList } } },
    async (request) => {
      const page = await billing.listRuns(apltDb(ctx, request), request.query.limit, request.query.offset);
      return { ...page, limit: request.query.limit, offset: request.query.offset };
    },
  );
  app.get(
    '/admin/aplt/subscriptions/billing-runs/:id',
    { ...auth, schema: { params: subscriptionIdParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => billing.loadRun(apltDb(ctx, request), request.params.id),
  );
  app.post(
    '/admin/aplt/subscriptions/billing-runs',
    { ...auth, schema: { body: runBillingBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) => {
      const report = await billing.runBilling(apltDb(ctx, request), {
        date: request.body.date,
        trigger: 'manual',
        actor: actorName(request),
        log: request.log,
      });
      request.log.info(
        { billing_run_id: report.run_id, created: report.created.length, failed: report.failures.length },
        'subscription billing run by staff',
      );
      return reply.code(201).send(await billing.loadRun(apltDb(ctx, request), report.run_id));
    },
  );

  app.get(
    '/admin/aplt/subscriptions/:id',
    { ...auth, schema: { params: subscriptionIdParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => service.loadSubscription(apltDb(ctx, request), request.params.id),
  );
  app.put(
    '/admin/aplt/subscriptions/:id',
    {
      ...auth,
      schema: {
        params: subscriptionIdParam,
        body: updateSubscriptionBody,
        response: { ...errorResponses, 200: anyObject },
      },
    },
    async (request) =>
      service.updateSubscription(apltDb(ctx, request), request.params.id, request.body, who(request)),
  );
  app.post(
    '/admin/aplt/subscriptions/:id/pause',
    { ...auth, schema: { params: subscriptionIdParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) =>
      service.updateSubscription(apltDb(ctx, request), request.params.id, { paused: true }, who(request)),
  );
  app.post(
    '/admin/aplt/subscriptions/:id/resume',
    { ...auth, schema: { params: subscriptionIdParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) =>
      service.updateSubscription(apltDb(ctx, request), request.params.id, { paused: false }, who(request)),
  );
  app.get(
    '/admin/aplt/subscriptions/:id/invoices',
    {
      ...auth,
      schema: {
        params: subscriptionIdParam,
        querystring: pageQuery,
        response: { ...errorResponses, 200: pagedList },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await service.subscriptionInvoices(apltDb(ctx, request), request.params.id, limit, offset);
      return { ...page, limit, offset };
    },
  );
}
