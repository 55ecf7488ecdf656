import { type App, unprocessable } from '@aplt/http';
import { z } from 'zod';
import { journalOf } from '../ledger/posting.service';
import { lineInput } from '../quotations/quotation.schemas';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, dateInput, idParam, listOf, errorResponses } from '../shared/schemas';
import { createCreditNote } from './credit-note.service';
import * as service from './invoice.service';

const createInvoiceBody = z.object({
  document_type: z.enum(['invoice', 'proforma']).default('invoice'),
  order_id: z.coerce.number().int().positive().optional(),
  /** Partial invoicing of an order: quantities per order line. */
  order_lines: z
    .array(
      z.object({ order_line_id: z.coerce.number().int().positive(), quantity: z.number().int().positive() }),
    )
    .optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  lines: z.array(lineInput).max(500).optional(),
  issue_date: dateInput.optional(),
  payment_term_days: z.number().int().min(0).max(60).optional(),
  reference: z.string().max(200).optional(),
  notes: z.string().max(5000).optional(),
});

const listQuery = z.object({
  status: z.enum(['open', 'paid', 'overdue', 'cancelled']).optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  order_id: z.coerce.number().int().positive().optional(),
  year: z.coerce.number().int().min(2000).max(9999).optional(),
  document_type: z.enum(['invoice', 'proforma']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export function registerInvoiceRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('invoices');

  app.get(
    '/admin/aplt/invoices',
    { ...auth, schema: { querystring: listQuery, response: { ...errorResponses, 200: listOf } } },
    async (request) => {
      const { document_type, ...f } = request.query;
      const data = await service.listInvoices(apltDb(ctx, request), {
        ...f,
        document_type: document_type ?? ['invoice', 'proforma'],
      });
      return { data, count: data.length };
    },
  );
  app.get(
    '/admin/aplt/invoices/:id',
    { ...auth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const inv = await service.loadInvoice(db, request.params.id);
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
        body: z.object({
          notes: z.string().max(5000).optional(),
          reference: z.string().max(200).optional(),
          sent_at: z.string().datetime().optional(),
          metadata: z.record(z.string(), z.unknown()).optional(),
        }),
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
  const creditBody = z.object({
    invoice_id: z.coerce.number().int().positive(),
    lines: z
      .array(
        z.object({
          invoice_line_id: z.coerce.number().int().positive(),
          quantity: z.number().int().positive(),
        }),
      )
      .min(1)
      .optional(),
    reason: z.string().min(1).max(2000),
    issue_date: dateInput.optional(),
  });
  app.get(
    '/admin/aplt/credit-notes',
    {
      ...creditAuth,
      schema: {
        querystring: listQuery
          .omit({ status: true, document_type: true })
          .extend({ invoice_id: z.coerce.number().int().positive().optional() }),
        response: { ...errorResponses, 200: listOf },
      },
    },
    async (request) => {
      const { invoice_id, ...f } = request.query;
      let data = await service.listInvoices(apltDb(ctx, request), { ...f, document_type: 'credit_note' });
      if (invoice_id) data = data.filter((d) => Number(d.credited_invoice_id) === invoice_id);
      return { data, count: data.length };
    },
  );
  app.get(
    '/admin/aplt/credit-notes/:id',
    { ...creditAuth, schema: { params: idParam, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const db = apltDb(ctx, request);
      const cn = await service.loadInvoice(db, request.params.id);
      if (cn.document_type !== 'credit_note')
        throw unprocessable(`${cn.invoice_number} is not a credit note`);
      return { ...cn, journal: await journalOf(db, 'credit_note', request.params.id) };
    },
  );
  app.post(
    '/admin/aplt/credit-notes',
    { ...creditAuth, schema: { body: creditBody, response: { ...errorResponses, 201: anyObject } } },
    async (request, reply) =>
      reply.code(201).send(await createCreditNote(apltDb(ctx, request), request.body, actorName(request))),
  );
}
