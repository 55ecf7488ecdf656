import { type Page, pageQuery } from './documents';
import { storeJson, storeRaw } from './store-api';

/** Spec 1: damaged, wrong product, not as expected, defective, other (free text). */
export const returnReasons = ['damaged', 'wrong_product', 'not_as_expected', 'defective', 'other'] as const;
export type ReturnReason = (typeof returnReasons)[number];

/** Spec 1 limits: at most 3 photos, each at most 5 MB, JPEG or PNG. */
export const MAX_RETURN_PHOTOS = 3;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

export interface ReturnRecord {
  id: number;
  return_number: string;
  status: string;
  invoice_id: number | null;
  invoice_number: string | null;
  remark: string | null;
  resolution: string | null;
  created_at: string;
  lines: Array<{
    id: number;
    invoice_line_id: number | null;
    sku: string | null;
    description: string | null;
    quantity: number;
    reason: ReturnReason;
    reason_text: string | null;
  }>;
  photos: Array<{ id: number; slot: number; content_type: string; url: string }>;
}

export interface ReturnInput {
  invoice_id: number;
  lines: Array<{ invoice_line_id: number; quantity: number; reason: ReturnReason; reason_text?: string }>;
  remark?: string;
}

export function listReturns(page: number): Promise<Page<ReturnRecord>> {
  return storeJson('/store/aplt/returns', { query: pageQuery(page) });
}

export const getReturn = (id: number) => storeJson<ReturnRecord>(`/store/aplt/returns/${id}`);

/** multipart/form-data: field "data" (JSON) and the photos in field "photos". */
export async function fileReturn(input: ReturnInput, photos: File[]): Promise<ReturnRecord> {
  const form = new FormData();
  form.append('data', JSON.stringify(input));
  for (const p of photos) form.append('photos', p, p.name || 'photo');
  return (await storeRaw('/store/aplt/returns', { method: 'POST', body: form }).then((r) =>
    r.json(),
  )) as ReturnRecord;
}

export const returnPhoto = (id: number, photoId: number) =>
  storeRaw(`/store/aplt/returns/${id}/photos/${photoId}`);
