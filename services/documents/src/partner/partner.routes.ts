import type { App } from '@aplt/http';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { errorResponses } from '../shared/schemas';
import type { PartnerQueue } from './partner-queue';
import {
  orderPartnerResponse,
  partnerListQuery,
  partnerListResponse,
  partnerOrderParams,
  partnerSettingsBody,
  partnerSettingsResponse,
  resendBody,
} from './partner.schemas';
import {
  isActive,
  readPartnerSettings,
  settingsView,
  updatePartnerSettings,
} from './partner-settings.service';
import { listPartnerStates, orderPartnerState, requestResend } from './partner-sync.service';

/** Routes after whose success an order may have been queued for the partner (see the hook below). */
const CONFIRMING_ROUTES = new Set([
  'POST /admin/aplt/quotations/confirm',
  'POST /admin/aplt/orders/status',
  'POST /store/aplt/quotes/:id/accept',
]);

/**
 * Partner fulfilment (issue #16): the tenant's partner settings (feature `parameters`), each
 * order's partner state, the list of orders by partner state and the manual resend (feature
 * `orders`). Everything sits under prefixes the proxy already sends to this service.
 */
export function registerPartnerRoutes(app: App, ctx: DocumentsContext, deps: { queue: PartnerQueue }) {
  // Once a confirming route answered 2xx its transaction has committed, with the outbox row when
  // the order has partner lines: wake the worker for the tenant now rather than at the next sweep.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 300 || !request.tenant) return;
    if (!CONFIRMING_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return;
    try {
      // Tenants without the partner sync never touch the queue.
      if (!isActive(await readPartnerSettings(apltDb(ctx, request)))) return;
      await deps.queue.sweepTenant(request.tenant.id);
    } catch (err) {
      request.log.warn({ err }, 'partner sweep not queued; the scheduled sweep will find the order');
    }
  });

  const settingsAuth = adminRoute('parameters');
  app.get(
    '/admin/aplt/parameters/partner',
    { ...settingsAuth, schema: { response: { ...errorResponses, 200: partnerSettingsResponse } } },
    async (request) => settingsView(await readPartnerSettings(apltDb(ctx, request))),
  );
  app.put(
    '/admin/aplt/parameters/partner',
    {
      ...settingsAuth,
      schema: { body: partnerSettingsBody, response: { ...errorResponses, 200: partnerSettingsResponse } },
    },
    async (request) =>
      updatePartnerSettings(apltDb(ctx, request), request.body, {
        tenantId: request.tenant.id,
        masterSecret: ctx.config.JWT_SECRET,
        actor: actorName(request),
        request_id: request.id,
        ip: request.ip,
        user_agent: request.headers['user-agent'] ?? null,
      }),
  );

  const orders = adminRoute('orders');
  app.get(
    '/admin/aplt/orders/partner',
    {
      ...orders,
      schema: { querystring: partnerListQuery, response: { ...errorResponses, 200: partnerListResponse } },
    },
    async (request) => listPartnerStates(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/orders/:id/partner',
    {
      ...orders,
      schema: { params: partnerOrderParams, response: { ...errorResponses, 200: orderPartnerResponse } },
    },
    async (request) => orderPartnerState(apltDb(ctx, request), request.params.id),
  );
  app.post(
    '/admin/aplt/orders/:id/partner/resend',
    {
      ...orders,
      schema: {
        params: partnerOrderParams,
        body: resendBody.nullish(),
        response: { ...errorResponses, 202: orderPartnerResponse },
      },
    },
    async (request, reply) => {
      const state = await requestResend(
        apltDb(ctx, request),
        request.params.id,
        request.body?.force ?? false,
      );
      await deps.queue.sendOrder(request.tenant.id, request.params.id).catch((err: unknown) => {
        request.log.warn({ err }, 'partner send not queued; the scheduled sweep will find the order');
      });
      return reply.code(202).send(state);
    },
  );
}
