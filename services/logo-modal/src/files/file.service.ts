import { PassThrough, type Readable } from 'node:stream';
import { notFound } from '@aplt/http';
import { loadSharp } from '../render/sharp';
import { masterDb } from '../catalog/catalog.service';
import type { FileKind } from '../db-types';
import { listFiles, type FileRow } from '../transactions/transaction.repository';
import { requireTransaction, type TransactionDeps } from '../transactions/transaction.service';
import { escapeHtml } from '@aplt/http';

export interface ServedFile {
  data: Buffer;
  contentType: string;
  filename: string;
}

/** Files of a transaction that exist; none at all for an unknown id (404). */
async function filesOf(deps: TransactionDeps, id: string) {
  const db = await masterDb(deps);
  const tx = await requireTransaction(db, id);
  const rows = await listFiles(db, tx.id);
  return { tx, rows: new Map<FileKind, FileRow>(rows.map((r) => [r.kind as FileKind, r])) };
}

async function read(deps: TransactionDeps, row: FileRow | undefined, what: string): Promise<ServedFile> {
  const data = row ? await deps.store.get(row.storage_key) : undefined;
  if (!row || !data) throw notFound(`The ${what} has not been generated`);
  return { data, contentType: row.content_type, filename: row.storage_key.split('/').pop() as string };
}

export async function getScreenshot(
  deps: TransactionDeps,
  id: string,
  opts: { quality?: string; format?: string },
) {
  const { rows } = await filesOf(deps, id);
  if (opts.quality === 'high') return read(deps, rows.get('screenshot_hq'), 'high-resolution screenshot');
  const png = await read(deps, rows.get('screenshot'), 'screenshot');
  if (opts.format === 'jpeg' || opts.format === 'jpg') {
    const sharp = await loadSharp();
    const data = await sharp(png.data).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
    return { data, contentType: 'image/jpeg', filename: 'screenshot.jpg' };
  }
  return png;
}

export async function getPdf(deps: TransactionDeps, id: string) {
  return read(deps, (await filesOf(deps, id)).rows.get('pdf'), 'proof PDF');
}

/** The logo as uploaded; available once files were generated ('Add to Order' or generate-pdf). */
export async function getLogo(deps: TransactionDeps, id: string) {
  const { rows } = await filesOf(deps, id);
  if (!rows.has('pdf')) throw notFound('The logo file has not been generated');
  return read(deps, rows.get('logo_original'), 'logo');
}

export async function getEps(deps: TransactionDeps, id: string) {
  return read(deps, (await filesOf(deps, id)).rows.get('eps'), 'EPS logo (only vector logos have one)');
}

export async function filesIndex(deps: TransactionDeps, id: string) {
  const { tx, rows } = await filesOf(deps, id);
  if (!rows.has('screenshot')) throw notFound('No files have been generated for this transaction');
  const base = `/api/transactions/${tx.id}`;
  return {
    transaction_id: tx.id,
    files: {
      screenshot: `${base}/screenshot`,
      screenshot_hq: `${base}/screenshot?quality=high`,
      logo_original: `${base}/logo`,
      pdf: `${base}/pdf`,
      ...(rows.has('eps') ? { eps: `${base}/eps` } : {}),
      download_zip: `${base}/download-zip`,
    },
  };
}

/** ZIP of screenshot, proof PDF, logo (and EPS), streamed: nothing is buffered whole. */
export async function zipStream(
  deps: TransactionDeps,
  id: string,
): Promise<{ stream: Readable; filename: string }> {
  const { tx, rows } = await filesOf(deps, id);
  if (!rows.has('screenshot') || !rows.has('pdf'))
    throw notFound('No files have been generated for this transaction');
  const entries: Array<[FileKind, string]> = [
    ['screenshot', 'screenshot.png'],
    ['pdf', ''],
    ['logo_original', ''],
    ['eps', 'logo.eps'],
  ];
  const files: Array<{ name: string; data: Buffer }> = [];
  for (const [kind, name] of entries) {
    const row = rows.get(kind);
    if (!row) continue;
    const data = await deps.store.get(row.storage_key);
    if (!data) continue;
    const stored = row.storage_key.split('/').pop() as string;
    files.push({
      name: name || (kind === 'logo_original' ? stored.replace('logo-original', 'logo') : stored),
      data,
    });
  }
  // Loaded with the first download: archiver and its streams are about 5 MB of resident memory.
  const { default: archiver } = await import('archiver');
  const archive = archiver('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  archive.on('error', (err) => out.destroy(err));
  archive.pipe(out);
  for (const f of files) archive.append(f.data, { name: f.name });
  void archive.finalize();
  return { stream: out, filename: `logo-transaction-${tx.id}.zip` };
}

/** GET .../modal: a small page listing every file, meant to be shown in the webshop's iframe. */
export async function filesPage(deps: TransactionDeps, id: string): Promise<string> {
  const index = await filesIndex(deps, id);
  const { tx } = await filesOf(deps, id);
  const f = index.files as Record<string, string>;
  const items: Array<[string, string | undefined]> = [
    ['Screenshot (PNG)', f.screenshot],
    ['Screenshot (JPEG)', f.screenshot ? `${f.screenshot}?format=jpeg` : undefined],
    ['Screenshot, high resolution (PNG)', f.screenshot_hq],
    ['Proof PDF (Korrekturabzug)', f.pdf],
    ['Logo as uploaded', f.logo_original],
    ['Logo (EPS)', f.eps],
    ['All files (ZIP)', f.download_zip],
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Files of ${escapeHtml(tx.id)}</title>
<style>body{font-family:system-ui,sans-serif;margin:16px;color:#222}img{max-width:320px;border:1px solid #ddd;display:block;margin:8px 0}li{margin:4px 0}</style></head>
<body><h1>Files</h1><p>${escapeHtml(tx.product_sku)} · ${escapeHtml(tx.technique_name ?? '')} · ${escapeHtml(tx.print_area ?? '')} mm · ${tx.quantity} pcs</p>
<img src="${escapeHtml(f.screenshot as string)}" alt="Product preview">
<ul>${items
    .filter(([, href]) => href)
    .map(
      ([label, href]) =>
        `<li><a href="${escapeHtml(href as string)}" target="_blank" rel="noopener">${escapeHtml(label)}</a></li>`,
    )
    .join('')}</ul></body></html>`;
}
