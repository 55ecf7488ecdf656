import { createHash } from 'node:crypto';
import { unprocessable, conflict } from '@aplt/http';
import type { Kysely } from 'kysely';
import { loadTemplate, withVariantColor } from '../catalog/template.service';
import type { FileKind, ModalDb } from '../db-types';
import { pdfToEps } from '../render/eps';
import { type LogoFormat, logoContentTypes } from '../render/logo-info';
import { logoOnlyHtml, proofHtml } from '../render/proof';
import { renderScreenshot, SCREENSHOT_HQ_WIDTH, SCREENSHOT_WIDTH } from '../render/screenshot';
import type { Selection } from './selection';
import type { LogoConfigInput, TransactionDeps } from './transaction.service';
import { listFiles, type TransactionRow, upsertFile } from './transaction.repository';

/**
 * The files of a transaction: the logo as uploaded and sanitised, and what 'Add to Order'
 * renders from it (screenshots, the proof PDF, the EPS of a vector logo), each in the file store
 * with its row.
 */
type FileDeps = Pick<TransactionDeps, 'store' | 'browser' | 'config'>;

const storageKey = (id: string, name: string) => `transactions/${id}/${name}`;

/** One file of the transaction into the store, and its row (a second one of a kind replaces the first). */
export async function storeFile(
  deps: FileDeps,
  db: Kysely<ModalDb>,
  tx: { id: string },
  kind: FileKind,
  name: string,
  contentType: string,
  data: Buffer,
  size?: { width: number; height: number },
) {
  const key = storageKey(tx.id, name);
  await deps.store.put(key, data);
  await upsertFile(db, {
    transaction_id: tx.id,
    kind,
    storage_key: key,
    content_type: contentType,
    size_bytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    width_px: size?.width ?? null,
    height_px: size?.height ?? null,
  });
}

async function loadLogo(deps: FileDeps, db: Kysely<ModalDb>, tx: TransactionRow) {
  const files = await listFiles(db, tx.id);
  const row = files.find((f) => f.kind === 'logo_sanitized');
  const data = row ? await deps.store.get(row.storage_key) : undefined;
  if (!row || !data) throw conflict('Upload a logo before generating files');
  const format = (Object.entries(logoContentTypes).find(([, ct]) => ct === row.content_type)?.[0] ??
    'png') as LogoFormat;
  return { format, data, width: row.width_px ?? 100, height: row.height_px ?? 100 };
}

/** Renders screenshot (normal and high resolution), proof PDF and, for vector logos, EPS. */
export async function generateFiles(
  deps: FileDeps,
  db: Kysely<ModalDb>,
  tx: TransactionRow,
  sel: Selection,
  only?: 'pdf',
) {
  const logo = await loadLogo(deps, db, tx);
  if (!sel.position.templatePath) throw unprocessable(`Product ${tx.product_sku} has no SVG template`);
  const templateSvg = withVariantColor(
    await loadTemplate(sel.position.templatePath, deps.config.SVG_TEMPLATE_DIR),
    sel.hex,
  );
  const cfg = tx.logo_config as LogoConfigInput;
  const placement = { scale: cfg.scale, x: cfg.x, y: cfg.y };
  const shotInput = { templateSvg, box: sel.position.box, logo, placement };
  const screenshot = await renderScreenshot(shotInput, SCREENSHOT_WIDTH);
  const sku = sel.variantSku;
  const proof = proofHtml({
    transactionId: tx.id,
    productName: sel.loaded.product.name,
    productSku: tx.product_sku,
    variantSku: sku,
    colorName: sel.colorName,
    techniqueCode: sel.technique.code,
    techniqueName: sel.technique.name,
    position: sel.position.name,
    printArea: sel.position.printArea,
    quantity: tx.quantity,
    colors: Array.isArray(cfg.colors) ? cfg.colors.map(String) : [],
    logo,
    placement,
    screenshotPng: screenshot,
    createdAt: tx.created_at,
  });
  const [hq, pdf, eps] = await Promise.all([
    only ? undefined : renderScreenshot(shotInput, SCREENSHOT_HQ_WIDTH),
    deps.browser.htmlToPdf(proof, { width: '210mm', height: '297mm' }),
    only || logo.format !== 'svg'
      ? undefined
      : (async () => {
          const page = logoOnlyHtml(logo);
          return pdfToEps(await deps.browser.htmlToPdf(page.html, page), deps.config.GHOSTSCRIPT_PATH);
        })(),
  ]);
  const filename = `korrekturabzug_${sku}.pdf`;
  await storeFile(deps, db, tx, 'pdf', filename, 'application/pdf', pdf);
  if (only) return filename;
  await storeFile(deps, db, tx, 'screenshot', 'screenshot.png', 'image/png', screenshot);
  if (hq) await storeFile(deps, db, tx, 'screenshot_hq', 'screenshot-hq.png', 'image/png', hq);
  if (eps) await storeFile(deps, db, tx, 'eps', 'logo.eps', 'application/postscript', eps);
  return filename;
}
