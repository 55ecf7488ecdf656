import { type App, HttpError } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { orderStatuses } from '../orders/order.service';
import { PoolBusyError } from '@aplt/browser';
import { loadPrintableDocument } from '../output/document.service';
import { pdfFileName } from '../output/eml.service';
import { ImageEmbedder } from '../output/image-embed';
import type { OutputConfig } from '../output/output.config';
import { documentPdf } from '../output/pdf.service';
import { apltDb, commerceDb, type DocumentsContext } from '../shared/context';
import { customerRoute } from '../shared/route-options';
import {
  listMyInvoices,
  listMyOrders,
  myInvoice,
  myInvoiceHeader,
  myOrder,
} from './customer-documents.service';
import { identifyCaller } from './customer-portal.service';
import {
  storeErrors,
  storeIdParam,
  storeIdQuery,
  storePage,
  storePageOf,
  storeRecord,
} from './store.schemas';

/**
 * The caller's orders and invoices (customer JWT, `_commerce_jwt` cookie or bearer). Every read
 * carries the owner condition in its query: someone else's id is a 404, exactly like an id that
 * does not exist.
 */
export function registerCustomerDocumentRoutes(app: App, ctx: DocumentsContext, output: OutputConfig) {
  const caller = (request: FastifyRequest) =>
    identifyCaller(commerceDb(ctx, request), apltDb(ctx, request), request.actor?.actorId);

  app.get(
    '/store/aplt/orders',
    {
      ...customerRoute('orders'),
      schema: {
        tags: ['store'],
        summary: "The caller's orders, 20 per page, newest first",
        querystring: z.object({ status: z.enum(orderStatuses).optional(), ...storePage }),
        response: { ...storeErrors, 200: storePageOf(storeRecord) },
      },
    },
    async (request) => listMyOrders(apltDb(ctx, request), await caller(request), request.query),
  );

  app.get(
    '/store/aplt/orders/:id',
    {
      ...customerRoute('orders'),
      schema: {
        tags: ['store'],
        summary: 'One order of the caller',
        params: storeIdParam,
        response: { ...storeErrors, 200: storeRecord },
      },
    },
    async (request) => myOrder(apltDb(ctx, request), await caller(request), request.params.id),
  );

  app.get(
    '/store/aplt/invoices',
    {
      // The caller's invoices and the credit notes on them: the invoice history, one feature.
      ...customerRoute('invoices'),
      schema: {
        tags: ['store'],
        summary: "The caller's invoices and credit notes with lines",
        querystring: z.object({
          status: z.enum(['open', 'paid', 'overdue', 'cancelled']).optional(),
          year: z.coerce.number().int().min(2000).max(9999).optional(),
          ...storePage,
        }),
        response: { ...storeErrors, 200: storePageOf(storeRecord) },
      },
    },
    async (request) => listMyInvoices(apltDb(ctx, request), await caller(request), request.query),
  );

  // Registered before /:id; the router prefers the static segment anyway.
  const images = new ImageEmbedder(output.PDF_IMAGE_TIMEOUT_MS);
  app.get(
    '/store/aplt/invoices/pdf',
    {
      ...customerRoute('invoices'),
      schema: {
        tags: ['store'],
        summary: "PDF of one of the caller's invoices or credit notes: the admin's persisted file",
        querystring: storeIdQuery,
        response: storeErrors,
      },
    },
    async (request, reply) => {
      const db = apltDb(ctx, request);
      const header = await myInvoiceHeader(db, await caller(request), request.query.id);
      const kind = header.document_type === 'credit_note' ? 'credit_note' : 'invoice';
      const doc = await loadPrintableDocument(db, kind, Number(header.id), images);
      if (!doc) throw new HttpError(404, 'not_found', `Invoice ${request.query.id} not found`);
      let pdf: Buffer;
      try {
        // The same function as the admin's download: the first render is persisted, later ones read it.
        pdf = await documentPdf(
          { pool: request.server.documentOutput.pool, storeDir: output.DOCUMENT_STORE_DIR, log: request.log },
          db,
          request.tenant.id,
          doc,
        );
      } catch (err) {
        if (err instanceof PoolBusyError)
          throw new HttpError(
            503,
            'unavailable',
            'PDF renderer is busy, try again shortly',
            {},
            { 'retry-after': '2' },
          );
        throw err;
      }
      // Binary body: sent as is, outside the JSON response schemas.
      return (reply as FastifyReply)
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdfFileName(kind, doc.number)}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );

  app.get(
    '/store/aplt/invoices/:id',
    {
      ...customerRoute('invoices'),
      schema: {
        tags: ['store'],
        summary: 'One invoice or credit note of the caller',
        params: storeIdParam,
        response: { ...storeErrors, 200: storeRecord },
      },
    },
    async (request) => myInvoice(apltDb(ctx, request), await caller(request), request.params.id),
  );
}
