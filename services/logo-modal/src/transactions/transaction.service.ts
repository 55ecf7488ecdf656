import { conflict, HttpError, notFound, unprocessable, badRequest } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { Kysely } from 'kysely';
import { fileUrls } from '../callbacks/callback.service';
import { CallbackTargetRefused, type CallbackTargets } from '../callbacks/ssrf';
import { type CatalogDeps, masterDb, requireProduct } from '../catalog/catalog.service';
import { parseSku } from '../catalog/sku';
import type { Config } from '../config';
import type { ModalDb } from '../db-types';
import type { FileStore } from '../files/file-store';
import { sanitizeSvg, SvgRejected } from '../files/svg-sanitize';
import type { BrowserPool } from '../render/browser';
import { inspectLogo, logoContentTypes, logoExtensions, sniffFormat } from '../render/logo-info';
import { type AddToOrderInput, applySelection, resolveSelection } from './selection';
import { generateFiles, storeFile } from './transaction-files';
import {
  deleteFiles,
  findStaleDrafts,
  findTransaction,
  insertTransaction,
  type TransactionRow,
  updateTransaction,
} from './transaction.repository';

export type { AddToOrderInput };

export interface TransactionDeps extends CatalogDeps {
  store: FileStore;
  browser: BrowserPool;
  queue: QueueClient;
  config: Config;
  /** Where callbacks may go (CALLBACK_ALLOWED_NETWORKS); checks callbackUrl at creation. */
  callbackTargets: CallbackTargets;
}

export interface LogoConfigInput {
  logoUrl?: string;
  techniqueCode?: string;
  techniqueName?: string;
  position?: string;
  printArea?: string;
  colors?: string[];
  scale?: number;
  x?: number;
  y?: number;
}

export interface CreateTransactionInput {
  basketId?: string;
  customerId?: string;
  source?: string;
  productSku: string;
  variantSku?: string;
  selectedColor?: string;
  techniqueCode?: string;
  techniqueName?: string;
  printArea?: string;
  quantity?: number;
  logoConfig?: LogoConfigInput;
  callbackUrl?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const relativeFiles = (id: string) => ({
  screenshot: `/api/transactions/${id}/screenshot`,
  pdf: `/api/transactions/${id}/pdf`,
  logo: `/api/transactions/${id}/logo`,
});

/** Unknown and malformed ids are the same to a caller: no such transaction (404, spec 3). */
export async function requireTransaction(db: Kysely<ModalDb>, id: string): Promise<TransactionRow> {
  const tx = UUID.test(id) ? await findTransaction(db, id) : undefined;
  if (!tx) throw notFound('Transaction not found', { transaction_id: id });
  return tx;
}

/** A callback address is checked when it is given: 400 naming the field when it will never be called. */
async function checkedCallback(raw: string | undefined, targets: CallbackTargets): Promise<string | null> {
  if (!raw) return null;
  try {
    return (await targets.check(raw, 'callbackUrl')).toString();
  } catch (err) {
    if (err instanceof CallbackTargetRefused)
      throw badRequest(err.message, {
        field: 'callbackUrl',
        issues: [{ path: 'body.callbackUrl', message: err.message }],
      });
    throw err;
  }
}

export async function createTransaction(deps: TransactionDeps, input: CreateTransactionInput) {
  const db = await masterDb(deps);
  const { baseSku, variantSku: skuVariant } = parseSku(input.productSku);
  if (input.variantSku) parseSku(input.variantSku);
  const loaded = await requireProduct(db, baseSku);
  const variantSku = input.variantSku ?? skuVariant ?? null;
  if (variantSku && variantSku !== baseSku && !loaded.variants.some((v) => v.sku === variantSku)) {
    throw unprocessable(`Variant ${variantSku} does not belong to product ${baseSku}`);
  }
  const callbackUrl = await checkedCallback(input.callbackUrl, deps.callbackTargets);
  const tx = await insertTransaction(db, {
    basket_id: input.basketId ?? null,
    customer_id: input.customerId ?? null,
    source: input.source ?? null,
    product_sku: baseSku,
    variant_sku: variantSku,
    selected_color:
      input.selectedColor ?? loaded.variants.find((v) => v.sku === variantSku)?.colorName ?? null,
    technique_code: input.techniqueCode ?? null,
    technique_name: input.techniqueName ?? null,
    print_area: input.printArea && /^\d+(\.\d+)?x\d+(\.\d+)?$/.test(input.printArea) ? input.printArea : null,
    quantity: input.quantity ?? 1,
    callback_url: callbackUrl,
    logo_config: { ...(input.logoConfig ?? {}) },
  });
  return {
    transaction_id: tx.id,
    basket_id: tx.basket_id,
    product_sku: tx.product_sku,
    quantity: tx.quantity,
    callback_url: tx.callback_url,
    status: tx.status,
    files: relativeFiles(tx.id),
  };
}

export function transactionView(tx: TransactionRow) {
  return {
    transaction_id: tx.id,
    basket_id: tx.basket_id,
    product_sku: tx.product_sku,
    variant_sku: tx.variant_sku ?? tx.product_sku,
    technique_code: tx.technique_code,
    technique_name: tx.technique_name,
    print_area: tx.print_area,
    quantity: tx.quantity,
    callback_url: tx.callback_url,
    callback_status: tx.callback_status,
    status: tx.status,
    logo_config: (tx.logo_config ?? {}) as Record<string, unknown>,
    files: relativeFiles(tx.id),
  };
}

function assertDraft(tx: TransactionRow) {
  if (tx.status === 'cancelled') throw conflict('Transaction is cancelled', { status: tx.status });
}

/** Stores an uploaded logo: the original bytes as uploaded, plus the sanitised SVG the renderers use. */
export async function uploadLogo(deps: TransactionDeps, id: string, data: Buffer) {
  const db = await masterDb(deps);
  const tx = await requireTransaction(db, id);
  assertDraft(tx);
  if (data.length === 0) throw badRequest('The uploaded file is empty');
  const format = sniffFormat(data);
  if (!format)
    throw new HttpError(415, 'unsupported_media_type', 'Only SVG, PNG and JPEG logos are accepted');
  let working = data;
  if (format === 'svg') {
    try {
      working = Buffer.from(await sanitizeSvg(data.toString('utf8')));
    } catch (err) {
      if (err instanceof SvgRejected) throw unprocessable(err.message);
      throw err;
    }
  }
  let info;
  try {
    info = await inspectLogo(format, working);
  } catch {
    throw unprocessable(`The ${format.toUpperCase()} file could not be read`);
  }
  await storeFile(
    deps,
    db,
    tx,
    'logo_original',
    `logo-original.${logoExtensions[format]}`,
    logoContentTypes[format],
    data,
    info,
  );
  await storeFile(
    deps,
    db,
    tx,
    'logo_sanitized',
    `logo.${logoExtensions[format]}`,
    logoContentTypes[format],
    working,
    info,
  );
  const logoUrl = `/api/transactions/${tx.id}/logo`;
  await updateTransaction(db, tx.id, {
    logo_config: { ...(tx.logo_config as object), logoUrl, colors: info.colors, logoFormat: format },
  });
  return { logoUrl, format, width: info.width, height: info.height, colors: info.colors };
}

/**
 * 'Add to Order': fixes the selection, generates every file, completes the transaction and, when
 * a callback address was given, queues the signed server-to-server callback. Returns the browser
 * message payload (spec 3, SERVICE_LOGO_ADD_TO_ORDER) with absolute URLs.
 */
export async function addToOrder(deps: TransactionDeps, id: string, input: AddToOrderInput, baseUrl: string) {
  const db = await masterDb(deps);
  let tx = await requireTransaction(db, id);
  assertDraft(tx);
  const loaded = await requireProduct(db, tx.product_sku);
  const sel = resolveSelection(loaded, tx, input);
  tx = await applySelection(db, tx, sel, input);
  await generateFiles(deps, db, tx, sel);
  const files = relativeFiles(tx.id);
  const hasCallback = !!tx.callback_url;
  await updateTransaction(db, tx.id, {
    status: 'completed',
    completed_at: new Date(),
    files,
    ...(hasCallback ? { callback_status: 'pending' as const } : {}),
  });
  if (tx.callback_url) {
    await deps.queue.enqueue('callbacks', 'callback.deliver', {
      transactionId: tx.id,
      url: tx.callback_url,
      integration: tx.source ?? 'default',
      baseUrl,
    });
  }
  const urls = fileUrls(baseUrl, tx.id);
  const variantSku = tx.variant_sku ?? tx.product_sku;
  return {
    transactionId: tx.id,
    basketId: tx.basket_id ?? '',
    productSku: tx.product_sku,
    variantSku,
    selectedVariant: variantSku === tx.product_sku ? '' : variantSku,
    selectedColor: tx.selected_color ?? '',
    quantity: tx.quantity,
    techniqueCode: tx.technique_code ?? '',
    techniqueName: tx.technique_name ?? '',
    printArea: tx.print_area ?? '',
    logoConfig: { ...(tx.logo_config as object), logoUrl: urls.logoUrl },
    filesUrl: urls.filesUrl,
    screenshotUrl: urls.screenshotUrl,
    pdfUrl: urls.pdfUrl,
    logoUrl: urls.logoUrl,
    modalUrl: urls.modalUrl,
    downloadZipUrl: urls.downloadZipUrl,
    epsUrl: urls.epsUrl,
  };
}

/** POST .../generate-pdf: (re)renders the proof for the current selection. */
export async function generatePdf(deps: TransactionDeps, id: string) {
  const db = await masterDb(deps);
  const tx = await requireTransaction(db, id);
  assertDraft(tx);
  const loaded = await requireProduct(db, tx.product_sku);
  const sel = resolveSelection(loaded, tx, {});
  const filename = await generateFiles(deps, db, tx, sel, 'pdf');
  return { success: true as const, data: { filename, url: `/api/transactions/${tx.id}/pdf` } };
}

/** DELETE: cancelled, and every file of the transaction removed from the store. */
export async function cancelTransaction(deps: TransactionDeps, id: string) {
  const db = await masterDb(deps);
  const tx = await requireTransaction(db, id);
  await deps.store.deletePrefix(`transactions/${tx.id}`);
  await deleteFiles(db, tx.id);
  await updateTransaction(db, tx.id, {
    status: 'cancelled',
    cancelled_at: tx.cancelled_at ?? new Date(),
    files: {},
  });
  return { success: true as const, message: 'Transaction cancelled' };
}

/**
 * Cancels drafts older than DRAFT_TTL_HOURS and deletes their files, in batches. Cancelling twice
 * is harmless, so several instances may run it at once.
 */
export async function purgeStaleDrafts(deps: TransactionDeps, now = new Date()): Promise<number> {
  const db = await masterDb(deps);
  const cutoff = new Date(now.getTime() - deps.config.DRAFT_TTL_HOURS * 3_600_000);
  let purged = 0;
  for (;;) {
    const ids = await findStaleDrafts(db, cutoff, 100);
    for (const id of ids) await cancelTransaction(deps, id);
    purged += ids.length;
    if (ids.length < 100) return purged;
  }
}
