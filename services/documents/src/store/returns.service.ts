import { randomBytes } from 'node:crypto';
import type { ApltDatabase, Kysely, TenantRecord } from '@aplt/db';
import { badRequest, notFound, unprocessable } from '@aplt/http';
import { z } from 'zod';
import { recordAudit } from '../shared/audit.service';
import { today } from '../shared/context';
import type { Caller } from './customer-portal.service';
import { returnView } from './customer-views';
import type { CheckedImage } from '@aplt/images';
import type { ReturnPhotoStore } from './photo-store';
import * as repo from './returns.repository';
import { storeId } from './store.schemas';

/** Spec 1: damaged, wrong product, not as expected, defective, other (free text). */
export const returnReasons = ['damaged', 'wrong_product', 'not_as_expected', 'defective', 'other'] as const;
export const returnStatuses = [
  'requested',
  'approved',
  'rejected',
  'received',
  'refunded',
  'closed',
] as const;

/** Spec 1 limits: at most 3 photos of at most 5 MB each. */
export const MAX_RETURN_PHOTOS = 3;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

export const returnInput = z.strictObject({
  invoice_id: storeId,
  lines: z
    .array(
      z
        .strictObject({
          invoice_line_id: storeId,
          quantity: z.number().int().min(1).max(1_000_000),
          reason: z.enum(returnReasons),
          reason_text: z.string().trim().max(1000).optional(),
        })
        .refine((l) => l.reason !== 'other' || (l.reason_text ?? '').length > 0, {
          message: 'reason_text is required when the reason is other',
          path: ['reason_text'],
        }),
    )
    .min(1)
    .max(100),
  remark: z.string().trim().max(2000).optional(),
});
export type ReturnInput = z.infer<typeof returnInput>;

export interface ReturnContext {
  aplt: Kysely<ApltDatabase>;
  tenant: TenantRecord;
  photos: ReturnPhotoStore;
}

export interface RequestMeta {
  ip: string;
  requestId: string;
  userAgent: string | null;
}

/**
 * Files a return of the caller's invoice lines. The named lines are locked for the rest of the
 * transaction, so two returns of the same lines run one after the other and the second sees the
 * first's quantities: together they can never exceed what was invoiced. Photos are written
 * before the transaction (no lock held during file I/O) and removed again if it fails. The audit
 * row commits with the return.
 */
export async function createReturn(
  rc: ReturnContext,
  who: Caller,
  input: ReturnInput,
  images: CheckedImage[],
  meta: RequestMeta,
) {
  const invoice = who.customer
    ? await repo.findReturnableInvoice(rc.aplt, who.customer.id, input.invoice_id)
    : undefined;
  if (!invoice || !who.customer) throw notFound(`Invoice ${input.invoice_id} not found`);
  const customerId = who.customer.id;

  const requested = new Map<string, number>();
  for (const l of input.lines) {
    requested.set(String(l.invoice_line_id), (requested.get(String(l.invoice_line_id)) ?? 0) + l.quantity);
  }
  const lineIds = [...requested.keys()].map(Number);

  const folder = randomBytes(8).toString('hex');
  const stored = images.map((image, i) => ({
    image,
    slot: i + 1,
    path: rc.photos.relativePath(rc.tenant.id, folder, i + 1, image),
  }));
  for (const s of stored) await rc.photos.write(s.path, s.image.data);

  try {
    const created = await rc.aplt.transaction().execute(async (trx) => {
      const locked = await repo.lockInvoiceLines(trx, input.invoice_id, lineIds);
      const byId = new Map(locked.map((l) => [String(l.id), l]));
      const missing = lineIds.filter((id) => !byId.has(String(id)));
      if (missing.length) {
        throw badRequest(`Not a line of invoice ${invoice.invoice_number}: ${missing.join(', ')}`, {
          issues: missing.map((id) => ({
            path: 'lines.invoice_line_id',
            message: `${id} is not a line of this invoice`,
          })),
        });
      }
      const notGoods = locked.filter((l) => l.line_type !== 'product');
      if (notGoods.length) {
        throw badRequest('Only product lines can be returned', {
          issues: notGoods.map((l) => ({
            path: 'lines.invoice_line_id',
            message: `${l.id} is a ${l.line_type} line`,
          })),
        });
      }
      const returned = await repo.returnedQuantities(trx, lineIds);
      const over = locked
        .map((l) => {
          const already = returned.get(String(l.id)) ?? 0;
          return {
            invoice_line_id: Number(l.id),
            invoiced: l.quantity,
            returned: already,
            available: Math.max(0, l.quantity - already),
            requested: requested.get(String(l.id))!,
          };
        })
        .filter((l) => l.requested > l.available);
      if (over.length) {
        throw unprocessable('A returned quantity exceeds what was invoiced minus earlier returns', {
          lines: over,
        });
      }

      const ret = await repo.insertReturn(trx, {
        customer_id: customerId,
        order_id: invoice.order_id,
        invoice_id: invoice.id,
        status: 'requested',
        remark: input.remark || null,
        customer_email: who.email,
      });
      const lines = await repo.insertReturnLines(
        trx,
        input.lines.map((l) => {
          const src = byId.get(String(l.invoice_line_id))!;
          return {
            return_id: ret.id,
            invoice_line_id: src.id,
            order_line_id: src.order_line_id,
            product_id: src.product_id,
            variant_id: src.variant_id,
            sku: src.sku,
            description: src.description,
            quantity: l.quantity,
            reason: l.reason,
            reason_text: l.reason_text || null,
          };
        }),
      );
      const photos = await repo.insertReturnPhotos(
        trx,
        stored.map((s) => ({
          return_id: ret.id,
          slot: s.slot,
          file_path: s.path,
          content_type: s.image.contentType,
          size_bytes: s.image.data.length,
          sha256: s.image.sha256,
          width: s.image.width,
          height: s.image.height,
        })),
      );
      // Last, so the counter row is locked as briefly as possible.
      const number = await repo.allocateReturnNumber(trx, Number(today().slice(0, 4)));
      await repo.setReturnNumber(trx, Number(ret.id), number);
      await recordAudit(trx, {
        actor: who.email,
        actor_type: 'customer',
        action: 'return.create',
        entity_type: 'return',
        entity_id: Number(ret.id),
        changes: {
          return_number: number,
          invoice_number: invoice.invoice_number,
          lines: input.lines.map((l) => ({
            invoice_line_id: l.invoice_line_id,
            quantity: l.quantity,
            reason: l.reason,
          })),
          photos: photos.length,
        },
        ip: meta.ip,
        user_agent: meta.userAgent,
        request_id: meta.requestId,
      });
      return { ...ret, return_number: number, invoice_number: invoice.invoice_number, lines, photos };
    });
    return {
      view: returnView(created, created.lines, created.photos),
      brandId: invoice.brand_id,
    };
  } catch (err) {
    await Promise.all(stored.map((s) => rc.photos.remove(s.path)));
    throw err;
  }
}

export async function listMyReturns(
  db: Kysely<ApltDatabase>,
  who: Caller,
  q: { status?: string; limit: number; offset: number },
) {
  if (!who.customer) return { data: [], count: 0, limit: q.limit, offset: q.offset };
  const { rows, count } = await repo.listReturnsOf(db, who.customer.id, q);
  const { lines, photos } = await repo.linesAndPhotosOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  const data = rows.map((r) =>
    returnView(
      r,
      lines.filter((l) => String(l.return_id) === String(r.id)),
      photos.filter((p) => String(p.return_id) === String(r.id)),
    ),
  );
  return { data, count, limit: q.limit, offset: q.offset };
}

export async function myReturn(db: Kysely<ApltDatabase>, who: Caller, id: number) {
  const r = who.customer ? await repo.findReturnOf(db, who.customer.id, id) : undefined;
  if (!r) throw notFound(`Return ${id} not found`);
  const { lines, photos } = await repo.linesAndPhotosOf(db, [id]);
  return returnView(r, lines, photos);
}

export async function myReturnPhoto(
  db: Kysely<ApltDatabase>,
  store: ReturnPhotoStore,
  who: Caller,
  returnId: number,
  photoId: number,
): Promise<{ data: Buffer; contentType: string; sha256: string | null }> {
  const p = who.customer ? await repo.findPhotoOf(db, who.customer.id, returnId, photoId) : undefined;
  const data = p ? await store.read(p.file_path) : null;
  if (!p || !data) throw notFound(`Photo ${photoId} of return ${returnId} not found`);
  return { data, contentType: p.content_type, sha256: p.sha256 ?? null };
}
