import { type App, notFound, unprocessable } from '@aplt/http';
import { journalOf } from '../ledger/posting.service';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, idParam, pagedList, errorResponses } from '../shared/schemas';
import {
  createInvoiceBody,
  creditNoteBody,
  listCreditNotesQuery,
  listInvoicesQuery,
  updateInvoiceBody,
} from './invoice.schemas';
import { createCreditNote } from './credit-note.service';
import * as service from './invoice.service';

export function registerInvoiceRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('invoices');

  app.get(
    '/admin/aplt/invoices',
    { ...auth, schema: { querystring: listInvoicesQuery, response: { ...errorResponses, 200: pagedList } } },
    async (request) => {
      const { document_type, ...f } = request.query;
      const page = await service.listInvoices(apltDb(ctx, request), {
        ...f,
        document_type: document_type ?? ['invoice', 'proforma'],
      });
      return { ...page, limit: f.limit, offset: f.offset };
    },
  );
  app.get(
    '/admin/aplt/invoices/:id',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const inv = await service.loadInvoiceDetail(db, request.params.id);
      return { ...inv, journal: await journalOf(db, 'invoice', request.params.id) };
    },
  );
  app.post(
    '/admin/aplt/invoices',
    { ...auth, schema: { body: createInvoiceBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) => {
      const b = request.body;
      const db = apltDb(ctx, request);
      let invoice;
      if (b.order_id) {
        if (b.lines)
          throw unprocessable(
            'Give either order_id (with optional order_lines) or customer_id with lines, not both',
          );
        invoice = await service.invoiceOrder(
          db,
          { ...b, order_id: b.order_id, lines: b.order_lines },
          actorName(request),
        );
      } else {
        if (!b.customer_id || !b.lines?.length)
          throw unprocessable('A direct invoice needs customer_id and lines');
        invoice = await service.invoiceDirect(
          db,
          { ...b, customer_id: b.customer_id, lines: b.lines },
          actorName(request),
        );
      }
      return reply.code(201).send(invoice);
    },
  );
  app.put(
    '/admin/aplt/invoices/:id',
    {
      ...auth,
      schema: {
        params: idParam,
        body: updateInvoiceBody,
        response: { ...errorResponses, 200: anyObject },
      },
    },
    async (request) => service.updateInvoice(apltDb(ctx, request), request.params.id, request.body),
  );
  app.delete('/admin/aplt/invoices/:id', { ...auth, schema: { params: idParam } }, async (request, reply) => {
    await service.removeInvoice(apltDb(ctx, request), request.params.id);
    return reply.code(204).send();
  });

  // Credit notes are their own licensed feature, though they live in the invoice tables.
  const creditAuth = adminRoute('credit_notes');
  app.get(
    '/admin/aplt/credit-notes',
    {
      ...creditAuth,
      schema: {
        querystring: listCreditNotesQuery,
        response: { ...errorResponses, 200: pagedList },
      },
    },
    async (request) => {
      const { invoice_id, ...f } = request.query;
      const page = await service.listInvoices(apltDb(ctx, request), {
        ...f,
        ...(invoice_id ? { credited_invoice_id: invoice_id } : {}),
        document_type: 'credit_note',
      });
      return { ...page, limit: f.limit, offset: f.offset };
    },
  );
  app.get(
    '/admin/aplt/credit-notes/:id',
    { ...creditAuth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const cn = await service.loadInvoiceDetail(db, request.params.id);
      // Another document's id is no credit note at all, like an id that does not exist.
      if (cn.document_type !== 'credit_note')
        throw notFound(`credit note ${request.params.id} not found`, { id: request.params.id });
      return { ...cn, journal: await journalOf(db, 'credit_note', request.params.id) };
    },
  );
  app.post(
    '/admin/aplt/credit-notes',
    { ...creditAuth, schema: { body: creditNoteBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) =>
      reply.code(201).send(await createCreditNote(apltDb(ctx, request), request.body, actorName(request))),
  );
}
