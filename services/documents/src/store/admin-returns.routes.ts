import { type App, notFound } from '@aplt/http';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, errorResponses, pagedList } from '../shared/schemas';
import { returnView } from './customer-views';
import type { ReturnPhotoStore } from './photo-store';
import { findReturnPhoto, findStaffReturn, linesAndPhotosOf, listStaffReturns } from './returns.repository';
import { returnStatuses } from './returns.service';
import { storeId } from './store.schemas';

/**
 * Staff's view of the returns customers file in the shop (issue #15): a list to find them by
 * status, invoice, customer or number, one return with its lines and photos, and a photo's
 * bytes. Read-only: deciding a return is not built yet. Same feature as the customer routes
 * (invoices: a return is filed against invoice lines).
 */
const auth = adminRoute('invoices');

const listQuery = z.object({
  status: z.enum(returnStatuses).optional(),
  invoice_id: storeId.optional(),
  customer_id: storeId.optional(),
  /** Return number, invoice number or customer e-mail (substring, case-insensitive). */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

type StaffReturn = NonNullable<Awaited<ReturnType<typeof findStaffReturn>>>;
type ReturnParts = Awaited<ReturnType<typeof linesAndPhotosOf>>;

function staffView(r: StaffReturn, lines: ReturnParts['lines'], photos: ReturnParts['photos']) {
  const view = returnView(r, lines, photos);
  return {
    ...view,
    customer_id: Number(r.customer_id),
    customer_email: r.customer_email ?? null,
    customer_name: r.customer_name ?? null,
    customer_company: r.customer_company ?? null,
    decided_by: r.decided_by ?? null,
    decided_at: r.decided_at ?? null,
    photos: view.photos.map((p) => ({ ...p, url: `/admin/aplt/returns/${view.id}/photos/${p.id}` })),
  };
}

export function registerAdminReturnRoutes(
  app: App,
  ctx: DocumentsContext,
  deps: { photos: ReturnPhotoStore },
) {
  app.get(
    '/admin/aplt/returns',
    {
      ...auth,
      schema: {
        tags: ['returns'],
        summary: 'Returns filed by customers, newest first (status, invoice, customer, number search)',
        querystring: listQuery,
        response: { ...errorResponses, 200: pagedList },
      },
    },
    async (request) => {
      const f = request.query;
      const db = apltDb(ctx, request);
      const { rows, count } = await listStaffReturns(db, f);
      const { lines, photos } = await linesAndPhotosOf(
        db,
        rows.map((r) => Number(r.id)),
      );
      return {
        data: rows.map((r) =>
          staffView(
            r,
            lines.filter((l) => String(l.return_id) === String(r.id)),
            photos.filter((p) => String(p.return_id) === String(r.id)),
          ),
        ),
        count,
        limit: f.limit,
        offset: f.offset,
      };
    },
  );

  app.get(
    '/admin/aplt/returns/:id',
    {
      ...auth,
      schema: {
        tags: ['returns'],
        summary: 'One return with its lines, photos and customer',
        params: z.object({ id: storeId }),
        response: { ...errorResponses, 200: anyObject },
      },
    },
    async (request) => {
      const db = apltDb(ctx, request);
      const r = await findStaffReturn(db, request.params.id);
      if (!r) throw notFound(`Return ${request.params.id} not found`, { id: request.params.id });
      const { lines, photos } = await linesAndPhotosOf(db, [Number(r.id)]);
      return staffView(r, lines, photos);
    },
  );

  app.get(
    '/admin/aplt/returns/:id/photos/:photoId',
    {
      ...auth,
      schema: {
        tags: ['returns'],
        summary: 'A photo of a return (JPEG or PNG, re-encoded without metadata)',
        params: z.object({ id: storeId, photoId: storeId }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const photo = await findReturnPhoto(apltDb(ctx, request), request.params.id, request.params.photoId);
      const data = photo ? await deps.photos.read(photo.file_path) : null;
      if (!photo || !data) throw notFound('Photo not found', { id: request.params.photoId });
      return (reply as FastifyReply)
        .header('content-type', photo.content_type)
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(data);
    },
  );
}
