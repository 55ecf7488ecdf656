import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApltDatabase, CommerceDatabase, Kysely } from '@aplt/db';
import { viaProxy } from '@aplt/testing';
import sharp from 'sharp';
import type { buildApp } from '../src/app';
import { adminToken, customerToken } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Private directories for persisted PDFs and return photos; set before the app is built. The test
 * file calls remove() after closing the app.
 */
export function useTempStores(label: string) {
  const documents = mkdtempSync(join(tmpdir(), `aplt-store-${label}-docs-`));
  const photos = mkdtempSync(join(tmpdir(), `aplt-store-${label}-photos-`));
  process.env.DOCUMENT_STORE_DIR = documents;
  process.env.RETURN_PHOTO_DIR = photos;
  return {
    documents,
    photos,
    remove: () =>
      Promise.all([documents, photos].map((dir) => rm(dir, { recursive: true, force: true }))).then(() => {}),
  };
}

/** A storefront customer: a commerce customer (who the token names) and, optionally, the matching aplt customer. */
export async function addCustomer(
  dbs: { commerce: Kysely<CommerceDatabase>; aplt: Kysely<ApltDatabase> },
  tenantId: string,
  c: { id: string; email: string; aplt?: boolean },
): Promise<{ commerceId: string; apltId: number | null; token: string; email: string }> {
  await dbs.commerce.insertInto('customer').values({ id: c.id, email: c.email, has_account: true }).execute();
  let apltId: number | null = null;
  if (c.aplt !== false) {
    const row = await dbs.aplt
      .insertInto('aplt_customers')
      .values({ email: c.email, company: `${c.id} BV`, first_name: c.id, country: 'NL', city: 'Utrecht' })
      .returning('id')
      .executeTakeFirstOrThrow();
    apltId = Number(row.id);
  }
  return { commerceId: c.id, apltId, token: await customerToken(tenantId, c.id), email: c.email };
}

/** Admin calls through inject with the proxy's assertion, for setting up documents. */
export function adminClient(app: App, host: string, tenantId: string) {
  let token: string | undefined;
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    token ??= await adminToken(tenantId);
    const res = await app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy(host), authorization: `Bearer ${token}` },
    });
    if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.rawPayload;
  };
}

/**
 * An invoiced order for an aplt customer: `lines` product lines (quantity each) through the
 * admin routes (quotation -> order -> invoice), as staff would make them.
 */
export async function invoicedOrder(
  admin: ReturnType<typeof adminClient>,
  customerId: number,
  quantities: number[],
): Promise<{
  quotationId: number;
  orderId: number;
  invoiceId: number;
  invoiceLines: Array<{ id: number; line_type: string; quantity: number }>;
}> {
  const q = await admin('POST', '/admin/aplt/quotations', {
    customer_id: customerId,
    source_code: 'manual',
    lines: quantities.map((quantity, i) => ({
      line_type: 'product',
      sku: `SKU-${i + 1}`,
      description: `Item ${i + 1}`,
      quantity,
      unit_price: '10.00',
    })),
  });
  const o = await admin('POST', '/admin/aplt/quotations/confirm', { id: q.id });
  const inv = await admin('POST', '/admin/aplt/invoices', { order_id: o.id });
  return {
    quotationId: Number(q.id),
    orderId: Number(o.id),
    invoiceId: Number(inv.id),
    invoiceLines: inv.lines.map((l: Item) => ({
      id: Number(l.id),
      line_type: l.line_type,
      quantity: l.quantity,
    })),
  };
}

/** A small real JPEG with EXIF metadata (to prove it is stripped), or a PNG. */
export async function jpegPhoto(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c03030' } })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Copyright: 'customer phone', ImageDescription: 'secret location' } })
    .toBuffer();
}

export async function pngPhoto(width = 40, height = 40): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** A multipart/form-data body built by hand, so tests control every byte (names, types, sizes). */
export function formBody(
  parts: Array<
    { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer }
  >,
): { body: Buffer; contentType: string } {
  const boundary = `----aplt${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`,
        ),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Polls `probe` until it returns a value (no fixed sleeps); fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
