import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Reads PDFs back with Debian's poppler-utils, a tool independent of the browser that wrote them. */
function withFile<T>(pdf: Buffer, fn: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'aplt-pdf-'));
  const file = join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Text as laid out on the page (a table row stays one line), each line's column gaps collapsed
 * to one space and lines joined by a space, so assertions read like the printed rows.
 */
export const pdfText = (pdf: Buffer) =>
  withFile(pdf, (f) => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', f, '-'], { encoding: 'utf8' }))
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');

export const pdfInfo = (pdf: Buffer): Record<string, string> =>
  Object.fromEntries(
    withFile(pdf, (f) => execFileSync('pdfinfo', [f], { encoding: 'utf8' }))
      .split('\n')
      .filter((l) => l.includes(':'))
      .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
  );

/** Number of raster images placed in the PDF (pdfimages -list prints two header lines). */
export const pdfImageCount = (pdf: Buffer) =>
  withFile(pdf, (f) => execFileSync('pdfimages', ['-list', f], { encoding: 'utf8' }))
    .trim()
    .split('\n')
    .slice(2).length;

/** Renders page 1 to a PNG file at `target` (without extension: pdftoppm adds .png). */
export const renderFirstPage = (pdf: Buffer, target: string) =>
  withFile(pdf, (f) => {
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', f, target]);
    return `${target}.png`;
  });
