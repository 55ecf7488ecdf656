import type { ApltDatabase, TenantDatabases } from '@aplt/db';
import { type App, errorBody, HttpError, notFound, requireActor, unprocessable } from '@aplt/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FeatureKey } from '@aplt/licensing';
import { z } from 'zod';
import { BrowserPool, PoolBusyError } from '@aplt/browser';
import type { DocumentKind, PrintableDocument } from './document.model';
import { loadPrintableDocument } from './document.service';
import { buildEmlDraft, draftAddresses, type DraftKind, emlFileName, pdfFileName } from './eml.service';
import { ImageEmbedder } from './image-embed';
import { loadOutputConfig, type OutputConfig, resolveChromiumPath } from './output.config';
import { documentPdf } from './pdf.service';
import { buildUbl, UblError } from './ubl.service';

export interface OutputRoutesOptions {
  databases: TenantDatabases;
  /** Defaults to the process environment (see output.config.ts). */
  config?: OutputConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The warm browser of document output (benchmarks and crash tests reach it here). */
    documentOutput: { pool: BrowserPool };
  }
}

/** URL segment -> document kind. */
const SEGMENTS: Record<string, DocumentKind> = {
  quotations: 'quotation',
  orders: 'order',
  invoices: 'invoice',
  'credit-notes': 'credit_note',
};

/** A document's PDF, draft and UBL belong to the licensed feature of the document itself. */
const FEATURES: Record<DocumentKind, FeatureKey> = {
  quotation: 'quotations',
  order: 'orders',
  invoice: 'invoices',
  credit_note: 'credit_notes',
};

const idQuery = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const idBody = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 422: errorBody, 503: errorBody };

/**
 * PDF, e-mail draft and UBL routes of the documents service. Wrapped with fastify-plugin so its
 * decorator is visible to the app; the browser starts on first use and stays warm until close.
 */
export const outputRoutes = fp(
  async (parent: FastifyInstance, opts: OutputRoutesOptions) => {
    // Every app of the fleet is built by createApp with the zod type provider.
    const app = parent as unknown as App;
    const config = opts.config ?? loadOutputConfig();
    const pool = new BrowserPool({
      executablePath: () => resolveChromiumPath(config.CHROMIUM_PATH),
      size: config.PDF_POOL_SIZE,
      queueLimit: config.PDF_QUEUE_LIMIT,
      onEvent: (event, detail) =>
        event === 'crash'
          ? app.log.warn(detail, 'PDF browser died; a new one starts on the next request')
          : app.log.info(detail, 'PDF browser launched'),
    });
    const images = new ImageEmbedder(config.PDF_IMAGE_TIMEOUT_MS);
    app.decorate('documentOutput', { pool });
    app.addReadinessCheck('browser', () => pool.ping());
    app.addHook('onClose', async () => pool.close());
    if (config.PDF_WARM_ON_START) {
      // In the background: a missing browser shows in /readyz, it must not stop the service.
      app.addHook('onReady', async () => {
        pool.ping().catch((err: unknown) => app.log.error({ err }, 'PDF browser failed to start'));
      });
    }

    const pdfDeps = { pool, storeDir: config.DOCUMENT_STORE_DIR, log: app.log };

    async function load(request: FastifyRequest, kind: DocumentKind, id: number): Promise<PrintableDocument> {
      const db = opts.databases.aplt<ApltDatabase>(request.tenant);
      const doc = await loadPrintableDocument(db, kind, id, images);
      if (!doc) throw notFound(`${kind.replace('_', ' ')} ${id} not found`, { id });
      return doc;
    }

    async function pdfOf(request: FastifyRequest, doc: PrintableDocument): Promise<Buffer> {
      try {
        return await documentPdf(
          pdfDeps,
          opts.databases.aplt<ApltDatabase>(request.tenant),
          request.tenant.id,
          doc,
        );
      } catch (err) {
        if (err instanceof PoolBusyError) {
          throw new HttpError(
            503,
            'unavailable',
            'PDF renderer is busy, try again shortly',
            {},
            { 'retry-after': '2' },
          );
        }
        throw err;
      }
    }

    const sendFile = (
      reply: FastifyReply,
      type: string,
      disposition: string,
      name: string,
      body: Buffer | string,
    ) =>
      reply
        .header('content-type', type)
        .header('content-disposition', `${disposition}; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .send(body);

    for (const [segment, kind] of Object.entries(SEGMENTS)) {
      app.get(
        `/admin/aplt/${segment}/pdf`,
        {
          preHandler: requireActor('user'),
          config: { feature: FEATURES[kind] },
          schema: {
            tags: ['documents'],
            summary: `A4 PDF of one ${kind.replace('_', ' ')}`,
            querystring: idQuery,
            response: errors,
          },
        },
        async (request, reply) => {
          const doc = await load(request, kind, request.query.id);
          const pdf = await pdfOf(request, doc);
          return sendFile(reply, 'application/pdf', 'inline', pdfFileName(kind, doc.number), pdf);
        },
      );
    }

    for (const [segment, kind] of Object.entries(SEGMENTS) as Array<[string, DraftKind]>) {
      app.post(
        `/admin/aplt/${segment}/eml`,
        {
          preHandler: requireActor('user'),
          config: { feature: FEATURES[kind] },
          schema: {
            tags: ['documents'],
            summary: `E-mail draft (.eml) with the ${kind} PDF`,
            body: idBody,
            response: errors,
          },
        },
        async (request, reply) => {
          const doc = await load(request, kind, request.body.id);
          // Check the addresses before paying for a render.
          draftAddresses(doc);
          const eml = await buildEmlDraft(kind, doc, await pdfOf(request, doc));
          return sendFile(reply, 'message/rfc822', 'attachment', emlFileName(kind, doc.number), eml);
        },
      );
    }

    for (const [segment, kind] of [
      ['invoices', 'invoice'],
      ['credit-notes', 'credit_note'],
    ] as const) {
      app.get(
        `/admin/aplt/${segment}/ubl`,
        {
          preHandler: requireActor('user'),
          config: { feature: FEATURES[kind] },
          schema: {
            tags: ['documents'],
            summary: `UBL 2.1 (Peppol BIS Billing 3.0) ${kind.replace('_', ' ')}`,
            querystring: idQuery,
            response: errors,
          },
        },
        async (request, reply) => {
          const doc = await load(request, kind, request.query.id);
          let xml: string;
          try {
            xml = await buildUbl(doc);
          } catch (err) {
            if (err instanceof UblError) throw unprocessable(`cannot build e-invoice: ${err.message}`);
            throw err;
          }
          const name = `${kind === 'invoice' ? 'factuur' : 'creditnota'}-${doc.number}.xml`;
          return sendFile(reply, 'application/xml; charset=utf-8', 'attachment', name, xml);
        },
      );
    }
  },
  { name: 'aplt-document-output', dependencies: ['aplt-health'] },
);

export default outputRoutes;
