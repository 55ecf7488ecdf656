import { errorBody, type App } from '@aplt/http';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { TransactionDeps } from '../transactions/transaction.service';
import {
  filesIndex,
  filesPage,
  getEps,
  getLogo,
  getPdf,
  getScreenshot,
  type ServedFile,
  zipStream,
} from './file.service';

const idParams = z.object({ id: z.string().max(64) });
/** File bodies (images, PDF, EPS, ZIP, HTML) are not JSON; the schema documents the status only. */
const binary = z.any();

function send(reply: FastifyReply, file: ServedFile, disposition: 'inline' | 'attachment' = 'inline') {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `${disposition}; filename="${file.filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .send(file.data);
}

/** File endpoints under /api/transactions/{id}/: 404 before generation and for unknown ids. */
export function fileRoutes(app: App, deps: TransactionDeps, frameAncestors: string) {
  app.get(
    '/api/transactions/:id/files',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request) => filesIndex(deps, request.params.id),
  );

  app.get(
    '/api/transactions/:id/screenshot',
    {
      schema: {
        params: idParams,
        querystring: z.object({
          quality: z.enum(['normal', 'high']).optional(),
          format: z.enum(['png', 'jpeg', 'jpg']).optional(),
        }),
        response: { 200: binary, 404: errorBody },
      },
    },
    async (request, reply) => send(reply, await getScreenshot(deps, request.params.id, request.query)),
  );

  app.get(
    '/api/transactions/:id/pdf',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request, reply) => send(reply, await getPdf(deps, request.params.id)),
  );

  app.get(
    '/api/transactions/:id/logo',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request, reply) => {
      const logo = await getLogo(deps, request.params.id);
      // The original upload may be an SVG with scripts: a sandboxing CSP keeps it inert if opened directly.
      reply.header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      );
      return send(reply, logo);
    },
  );

  app.get(
    '/api/transactions/:id/eps',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request, reply) => send(reply, await getEps(deps, request.params.id), 'attachment'),
  );

  app.get(
    '/api/transactions/:id/download-zip',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request, reply) => {
      const zip = await zipStream(deps, request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${zip.filename}"`)
        .send(zip.stream);
    },
  );

  app.get(
    '/api/transactions/:id/modal',
    { schema: { params: idParams, response: { 200: binary, 404: errorBody } } },
    async (request, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-security-policy',
          `default-src 'self'; style-src 'unsafe-inline'; frame-ancestors ${frameAncestors}`,
        )
        .send(await filesPage(deps, request.params.id)),
  );
}
