import { type App, CUSTOMER_COOKIE, errorBody, requireActor } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apltDb, commerceDb, type DocumentsContext } from '../shared/context';
import { customerRoute, storeRoute } from '../shared/route-options';
import {
  addLineBody,
  cartIdParam,
  cartLineParam,
  emptyBody,
  langQuery,
  quoteRequestBody,
  updateLineBody,
} from './cart.schemas';
import * as carts from './cart.service';
import { identifyCaller } from './customer-portal.service';
import type { StaffNotifier } from './staff-notify';
import { storeErrors, storeRecord } from './store.schemas';

/**
 * Carts belong to the `quotations` feature: this platform has no checkout, a cart's only way out
 * is a quotation request (source `web`), and a tenant without quotations has nothing to put a
 * cart into. The catalog it reads (`products`) is a prerequisite of every shop, not the reason
 * the cart exists.
 */
const FEATURE = 'quotations' as const;

const cartBody = z.object({ cart: storeRecord });
const responses = { ...storeErrors, 200: cartBody, 201: cartBody };

/**
 * The customer of the request when it carries a customer token (bearer or the storefront's
 * cookie), else a guest. A token that is there but not valid (forged, expired, of a deleted
 * account or another tenant) is a 401, as on every customer route, never silently a guest: the
 * storefront drops a dead session and carries on as a guest itself.
 */
async function shopper(ctx: DocumentsContext, request: FastifyRequest): Promise<carts.Shopper | null> {
  const hasToken = request.headers.authorization?.startsWith('Bearer ') || request.cookies?.[CUSTOMER_COOKIE];
  if (!hasToken) return null;
  await requireActor('customer')(request);
  return signedIn(ctx, request);
}

async function signedIn(ctx: DocumentsContext, request: FastifyRequest): Promise<carts.Shopper> {
  const ref = request.actor!.actorId;
  return { ref, caller: await identifyCaller(commerceDb(ctx, request), apltDb(ctx, request), ref) };
}

export function registerCartRoutes(app: App, ctx: DocumentsContext, deps: { notifier: StaffNotifier }) {
  const open = storeRoute(FEATURE);
  const customer = customerRoute(FEATURE);
  const tags = ['store', 'carts'];

  app.post(
    '/store/carts',
    {
      ...open,
      schema: {
        tags,
        summary:
          'A new cart (id cart_<uuid>). With a customer token: the customer’s open cart when there is one (200), else a new cart of theirs',
        querystring: langQuery,
        body: emptyBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const who = await shopper(ctx, request);
      const { created, cart } = await carts.createCart(
        apltDb(ctx, request),
        ctx.config,
        who,
        request.query.lang,
      );
      return reply.status(created ? 201 : 200).send({ cart });
    },
  );

  // Static before the parametric route in the router, whatever the order here.
  app.get(
    '/store/carts/mine',
    {
      ...customer,
      schema: {
        tags,
        summary: 'The signed-in customer’s open cart, or null',
        querystring: langQuery,
        response: { ...storeErrors, 200: z.object({ cart: storeRecord.nullable() }) },
      },
    },
    async (request) => ({
      cart: await carts.myOpenCart(
        apltDb(ctx, request),
        ctx.config,
        await signedIn(ctx, request),
        request.query.lang,
      ),
    }),
  );

  app.get(
    '/store/carts/:id',
    {
      ...open,
      schema: {
        tags,
        summary: 'One cart with its lines priced at their quantities (decimal strings, excl. VAT)',
        params: cartIdParam,
        querystring: langQuery,
        response: responses,
      },
    },
    async (request) => ({
      cart: await carts.getCart(
        apltDb(ctx, request),
        ctx.config,
        await shopper(ctx, request),
        request.params.id,
        request.query.lang,
      ),
    }),
  );

  app.post(
    '/store/carts/:id/line-items',
    {
      ...open,
      schema: {
        tags,
        summary:
          'Add a line {sku, variant_id?, quantity, configuration?: {transaction_id, technique, position?, colors?, proof_url?, screenshot_url?}}; the same product (or logo transaction) again is the same line',
        params: cartIdParam,
        querystring: langQuery,
        body: addLineBody,
        response: responses,
      },
    },
    async (request) => ({
      cart: await carts.addLine(
        apltDb(ctx, request),
        ctx.config,
        await shopper(ctx, request),
        request.params.id,
        request.body,
        request.query.lang,
      ),
    }),
  );

  app.post(
    '/store/carts/:id/line-items/:line_id',
    {
      ...open,
      schema: {
        tags,
        summary: 'Change a line’s quantity',
        params: cartLineParam,
        querystring: langQuery,
        body: updateLineBody,
        response: responses,
      },
    },
    async (request) => ({
      cart: await carts.updateLine(
        apltDb(ctx, request),
        ctx.config,
        await shopper(ctx, request),
        request.params.id,
        request.params.line_id,
        request.body.quantity,
        request.query.lang,
      ),
    }),
  );

  app.delete(
    '/store/carts/:id/line-items/:line_id',
    {
      ...open,
      schema: {
        tags,
        summary: 'Remove a line',
        params: cartLineParam,
        querystring: langQuery,
        response: responses,
      },
    },
    async (request) => ({
      cart: await carts.removeLine(
        apltDb(ctx, request),
        ctx.config,
        await shopper(ctx, request),
        request.params.id,
        request.params.line_id,
        request.query.lang,
      ),
    }),
  );

  app.post(
    '/store/carts/:id/customer',
    {
      ...customer,
      schema: {
        tags,
        summary:
          'After sign-in: the guest cart becomes the customer’s, or its lines merge into the customer’s open cart (idempotent); answers the resulting cart',
        params: cartIdParam,
        querystring: langQuery,
        body: emptyBody,
        response: responses,
      },
    },
    async (request) => ({
      cart: await carts.transferCart(
        apltDb(ctx, request),
        ctx.config,
        await signedIn(ctx, request),
        request.params.id,
        request.query.lang,
      ),
    }),
  );

  app.post(
    '/store/carts/:id/quote-request',
    {
      ...open,
      schema: {
        tags,
        summary:
          'Turn the cart into a quotation (source web): a guest gives name, email, company (phone, remark optional); a signed-in customer’s names their customer record, made from the shop account when the tenant has none. A second request answers 409 with the same quotation',
        params: cartIdParam,
        body: quoteRequestBody,
        response: { ...storeErrors, 201: z.object({ quotation: storeRecord }), 409: errorBody },
      },
    },
    async (request, reply) => {
      const who = await shopper(ctx, request);
      const aplt = apltDb(ctx, request);
      // A signed-in customer without a customer record gets one from their shop account.
      const account =
        who && !who.caller.customer ? await carts.shopperProfile(commerceDb(ctx, request), who) : null;
      const quotation = await carts.requestQuotation(
        aplt,
        ctx.config,
        who,
        request.params.id,
        request.body,
        { ip: request.ip, requestId: request.id, userAgent: request.headers['user-agent'] ?? null },
        account,
      );
      const view = carts.requestedQuotationView(quotation);
      // The request is stored and audited; a mail that cannot be queued is logged, not the shopper's problem.
      try {
        await deps.notifier.quotationRequested(
          request.tenant,
          { aplt, commerce: commerceDb(ctx, request) },
          quotation.brand_id === null ? null : Number(quotation.brand_id),
          view,
          request.body.phone ?? null,
          request.body.remark ?? null,
        );
      } catch (err) {
        request.log.error(
          { err, quotation: view.quotation_number },
          'staff notification of a quotation request was not queued',
        );
      }
      return reply.status(201).send({ quotation: view });
    },
  );
}
