import { type App, badRequest, badStringPath, unprocessable } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apltDb, commerceDb, type DocumentsContext } from '../shared/context';
import { customerRoute } from '../shared/route-options';
import { identifyCaller } from './customer-portal.service';
import { checkImage } from '@aplt/images';
import { readForm } from './multipart-form';
import type { ReturnPhotoStore } from './photo-store';
import {
  createReturn,
  listMyReturns,
  MAX_PHOTO_BYTES,
  MAX_RETURN_PHOTOS,
  myReturn,
  myReturnPhoto,
  returnInput,
  returnStatuses,
} from './returns.service';
import type { StaffNotifier } from './staff-notify';
import { storeErrors, storeId, storeIdParam, storePage, storePageOf, storeRecord } from './store.schemas';

/** Room for the JSON field and the multipart framing around the photos. */
export const RETURN_FORM_OVERHEAD = 128 * 1024;
/** A photo may be a 48-megapixel phone picture; more pixels than this is refused before decoding. */
const MAX_PHOTO_PIXELS = 50_000_000;
/** Stored photos are at most this many pixels on their long side: enough to judge damage. */
const STORED_PHOTO_SIDE = 4096;

/**
 * Returns are filed against lines of the caller's invoices, so they belong to the invoices
 * feature: without it there is no invoice to return anything from.
 */
const returnsRoute = customerRoute('invoices');

export function registerReturnRoutes(
  app: App,
  ctx: DocumentsContext,
  deps: { photos: ReturnPhotoStore; notifier: StaffNotifier },
) {
  const caller = (request: FastifyRequest) =>
    identifyCaller(commerceDb(ctx, request), apltDb(ctx, request), request.actor?.actorId);

  app.post(
    '/store/aplt/returns',
    {
      ...returnsRoute,
      bodyLimit: MAX_RETURN_PHOTOS * MAX_PHOTO_BYTES + RETURN_FORM_OVERHEAD,
      schema: {
        tags: ['store'],
        summary:
          'File a return: multipart/form-data with field "data" (JSON {invoice_id, lines: [{invoice_line_id, quantity, reason, reason_text?}], remark?}) and up to 3 JPEG/PNG files "photos" of at most 5 MB',
        consumes: ['multipart/form-data'],
        response: { ...storeErrors, 201: storeRecord },
      },
    },
    async (request, reply) => {
      const who = await caller(request);
      const form = await readForm(request, {
        fileField: 'photos',
        maxFiles: MAX_RETURN_PHOTOS,
        maxFileBytes: MAX_PHOTO_BYTES,
        fields: ['data'],
      });
      if (form.fields.data === undefined) throw badRequest('Field "data" (JSON) is required');
      let raw: unknown;
      try {
        raw = JSON.parse(form.fields.data);
      } catch {
        throw badRequest('Field "data" is not valid JSON', {
          issues: [{ path: 'data', message: 'invalid JSON' }],
        });
      }
      const bad = badStringPath(raw, 'data');
      if (bad) {
        throw badRequest(`${bad} contains a NUL byte or an unpaired surrogate`, {
          issues: [{ path: bad, message: 'contains a NUL byte or an unpaired surrogate' }],
        });
      }
      const parsed = returnInput.safeParse(raw);
      if (!parsed.success) {
        throw badRequest('Request validation failed', {
          issues: parsed.error.issues.map((i) => ({
            path: ['data', ...i.path].join('.'),
            message: i.message,
          })),
        });
      }
      const images = [];
      for (const [i, file] of form.files.entries()) {
        const image = await checkImage(file, {
          label: `photos[${i}]`,
          maxPixels: MAX_PHOTO_PIXELS,
          maxSide: STORED_PHOTO_SIDE,
        });
        // Re-encoding rarely grows a file, but a tightly optimised PNG can: the stored limit holds too.
        if (image.data.length > MAX_PHOTO_BYTES) {
          throw unprocessable(`photos[${i}] is larger than ${MAX_PHOTO_BYTES} bytes once re-encoded`, {
            field: `photos[${i}]`,
          });
        }
        images.push(image);
      }
      const aplt = apltDb(ctx, request);
      const { view, brandId } = await createReturn(
        { aplt, tenant: request.tenant, photos: deps.photos },
        who,
        parsed.data,
        images,
        { ip: request.ip, requestId: request.id, userAgent: request.headers['user-agent'] ?? null },
      );
      // The return is stored and audited; a mail that cannot be queued is logged, not the customer's problem.
      try {
        await deps.notifier.returnFiled(
          request.tenant,
          { aplt, commerce: commerceDb(ctx, request) },
          brandId,
          who.email,
          view,
        );
      } catch (err) {
        request.log.error(
          { err, return: view.return_number },
          'staff notification of a return was not queued',
        );
      }
      return reply.status(201).send(view);
    },
  );

  app.get(
    '/store/aplt/returns',
    {
      ...returnsRoute,
      schema: {
        tags: ['store'],
        summary: "The caller's returns, newest first",
        querystring: z.object({ status: z.enum(returnStatuses).optional(), ...storePage }),
        response: { ...storeErrors, 200: storePageOf(storeRecord) },
      },
    },
    async (request) => listMyReturns(apltDb(ctx, request), await caller(request), request.query),
  );

  app.get(
    '/store/aplt/returns/:id',
    {
      ...returnsRoute,
      schema: {
        tags: ['store'],
        summary: 'One return of the caller with its lines and photo links',
        params: storeIdParam,
        response: { ...storeErrors, 200: storeRecord },
      },
    },
    async (request) => myReturn(apltDb(ctx, request), await caller(request), request.params.id),
  );

  app.get(
    '/store/aplt/returns/:id/photos/:photoId',
    {
      ...returnsRoute,
      schema: {
        tags: ['store'],
        summary: "A photo of one of the caller's returns",
        params: z.object({ id: storeId, photoId: storeId }),
        response: storeErrors,
      },
    },
    async (request, reply) => {
      const photo = await myReturnPhoto(
        apltDb(ctx, request),
        deps.photos,
        await caller(request),
        request.params.id,
        request.params.photoId,
      );
      // Binary body: sent as is, outside the JSON response schemas.
      return (reply as FastifyReply)
        .header('content-type', photo.contentType)
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(photo.data);
    },
  );
}
