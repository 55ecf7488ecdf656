import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApltDatabase } from '@aplt/db';
import type { BrowserPool } from '@aplt/browser';
import type { PrintableDocument } from './document.model';
import { recordInvoicePdf, replaceInvoicePdf } from './output.repository';
import { footerTemplate, renderDocumentHtml } from './templates/document.template';

export const PDF_OPTIONS = {
  format: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: '<span></span>',
  margin: { top: '14mm', right: '14mm', bottom: '18mm', left: '14mm' },
} as const;

/** Renders the document's HTML to an A4 PDF on a page of the warm browser. */
export async function renderPdf(pool: BrowserPool, doc: PrintableDocument): Promise<Buffer> {
  const html = renderDocumentHtml(doc);
  const pdf = await pool.withPage(async (page) => {
    await page.setContent(html, { waitUntil: 'load' });
    return page.pdf({ ...PDF_OPTIONS, footerTemplate: footerTemplate(doc) });
  });
  return pinPdfDates(Buffer.from(pdf), doc.date);
}

/**
 * Chromium stamps the render time into CreationDate/ModDate, the only bytes that differ between
 * two renders of the same HTML. Setting them to the document's own date makes a document's PDF
 * the same every time (the .eml attachment equals the PDF download) and dates it truthfully.
 * The replacement has the same length, so the PDF's byte offsets stay valid.
 */
export function pinPdfDates(pdf: Buffer, isoDate: string): Buffer {
  const day = isoDate.slice(0, 10).replace(/-/g, '');
  const text = pdf.toString('latin1');
  const pinned = renumberStructureIds(
    text.replace(/\/(CreationDate|ModDate) \(D:(\d{14})/g, (_m, key: string) => `/${key} (D:${day}000000`),
  );
  return pinned === text ? pdf : Buffer.from(pinned, 'latin1');
}

/**
 * The accessibility structure tree of a tagged PDF names its elements after DOM node ids
 * (node00000036), which grow with every render on a reused page. Renumbering them 0..n in their
 * numeric order keeps them unique, sorted (the /IDTree stays valid) and the same length.
 */
function renumberStructureIds(text: string): string {
  const ids = [...new Set(text.match(/\(node\d{8}\)/g) ?? [])].sort();
  if (ids.length === 0) return text;
  const map = new Map(ids.map((old, i) => [old, `(node${String(i).padStart(8, '0')})`]));
  return text.replace(/\(node\d{8}\)/g, (m) => map.get(m)!);
}

export interface PdfDeps {
  pool: BrowserPool;
  storeDir: string;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The PDF of an issued invoice or credit note is kept from its first render on and served from
 * storage afterwards, so a document that was sent never changes silently when templates or
 * company data change. Quotations and orders are rendered on every request.
 */
export async function documentPdf(
  deps: PdfDeps,
  db: Kysely<ApltDatabase>,
  tenantId: string,
  doc: PrintableDocument,
): Promise<Buffer> {
  if (doc.kind !== 'invoice' && doc.kind !== 'credit_note') return renderPdf(deps.pool, doc);

  if (doc.pdfPath) {
    const stored = await readStored(deps.storeDir, doc.pdfPath);
    if (stored) return stored;
    deps.log.warn({ invoice: doc.number, path: doc.pdfPath }, 'stored invoice PDF missing; rendering again');
  }
  const pdf = await renderPdf(deps.pool, doc);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const relative = [
    safeSegment(tenantId),
    'invoices',
    `${safeSegment(doc.number)}-${sha256.slice(0, 12)}.pdf`,
  ].join('/');
  await writeAtomically(join(deps.storeDir, relative), pdf);
  if (doc.pdfPath) {
    await replaceInvoicePdf(db, doc.id, { path: relative, sha256 });
    return pdf;
  }
  const recorded = await recordInvoicePdf(db, doc.id, { path: relative, sha256 });
  if (recorded.pdf_path === relative) return pdf;
  // Another request stored its render first: that one is the original, ours is dropped.
  await unlink(join(deps.storeDir, relative)).catch(() => {});
  return (await readStored(deps.storeDir, recorded.pdf_path)) ?? pdf;
}

async function readStored(storeDir: string, relative: string): Promise<Buffer | null> {
  const root = resolve(storeDir);
  const full = resolve(root, relative);
  if (!full.startsWith(root + sep)) return null;
  try {
    return await readFile(full);
  } catch {
    return null;
  }
}

async function writeAtomically(path: string, data: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

const safeSegment = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
