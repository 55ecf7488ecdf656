import { parsePrintArea, placeLogo } from '../catalog/geometry';
import type { LogoFormat } from './logo-info';
import { escapeHtml } from '@aplt/http';

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

/**
 * The logo as an element placed at x/y/width/height. A vector logo is inlined as a nested <svg>
 * so that Chromium prints its paths as paths (vector in the PDF); a raster logo is an <image>.
 */
export function logoElement(
  logo: { format: LogoFormat; data: Buffer; width: number; height: number },
  box: { x: number; y: number; width: number; height: number },
): string {
  if (logo.format !== 'svg') {
    const mime = logo.format === 'png' ? 'image/png' : 'image/jpeg';
    return `<image x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" preserveAspectRatio="xMidYMid meet" href="data:${mime};base64,${logo.data.toString('base64')}"/>`;
  }
  const svg = logo.data.toString('utf8');
  const open = /^<svg\b[^>]*>/i.exec(svg.trim());
  if (!open) throw new Error('Sanitised logo has no root element');
  let tag = open[0].replace(/\s(width|height|x|y|preserveAspectRatio)\s*=\s*("[^"]*"|'[^']*')/gi, '');
  if (!/\sviewBox\s*=/i.test(tag))
    tag = tag.replace(/^<svg/i, `<svg viewBox="0 0 ${logo.width} ${logo.height}"`);
  tag = tag.replace(
    /^<svg/i,
    `<svg x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" preserveAspectRatio="xMidYMid meet"`,
  );
  return tag + svg.trim().slice(open[0].length);
}

export interface ProofInput {
  transactionId: string;
  productName: string;
  productSku: string;
  variantSku: string;
  colorName: string;
  techniqueCode: string;
  techniqueName: string;
  position: string;
  printArea: string;
  quantity: number;
  colors: string[];
  logo: { format: LogoFormat; data: Buffer; width: number; height: number };
  placement: { scale?: number; x?: number; y?: number };
  screenshotPng: Buffer;
  createdAt: Date;
}

/**
 * The print-ready proof (Korrekturabzug) as an A4 HTML page for Chromium to print: the print
 * area drawn to scale in mm with its dimensions, the logo placed in it (vector stays vector),
 * technique, colours and the product preview.
 */
export function proofHtml(p: ProofInput): string {
  const area = parsePrintArea(p.printArea) ?? { widthMm: 50, heightMm: 30 };
  const place = placeLogo(
    { x: 0, y: 0, width: area.widthMm, height: area.heightMm },
    p.logo.width / p.logo.height,
    p.placement,
  );
  // The drawing fits a 170 x 110 mm box; small print areas are shown 1:1.
  const scale = Math.min(1, 170 / area.widthMm, 110 / area.heightMm);
  const margin = 12;
  const W = area.widthMm * scale;
  const H = area.heightMm * scale;
  const swatches = p.colors
    .map(
      (c) =>
        `<span class="sw"><span class="chip" style="background:${escapeHtml(c)}"></span>${escapeHtml(c)}</span>`,
    )
    .join(' ');
  const drawing = `
<svg xmlns="http://www.w3.org/2000/svg" width="${fmt(W + 2 * margin)}mm" height="${fmt(H + 2 * margin)}mm" viewBox="${-margin} ${-margin} ${fmt(W + 2 * margin)} ${fmt(H + 2 * margin)}">
  <rect x="0" y="0" width="${fmt(W)}" height="${fmt(H)}" fill="none" stroke="#d00" stroke-width="0.3" stroke-dasharray="2 1"/>
  <g transform="scale(${scale})">${logoElement(p.logo, place)}</g>
  <line x1="0" y1="${fmt(H + 5)}" x2="${fmt(W)}" y2="${fmt(H + 5)}" stroke="#333" stroke-width="0.2"/>
  <text x="${fmt(W / 2)}" y="${fmt(H + 9)}" font-size="3.2" text-anchor="middle" font-family="sans-serif">${fmt(area.widthMm)} mm</text>
  <line x1="${fmt(W + 5)}" y1="0" x2="${fmt(W + 5)}" y2="${fmt(H)}" stroke="#333" stroke-width="0.2"/>
  <text x="${fmt(W + 7)}" y="${fmt(H / 2)}" font-size="3.2" font-family="sans-serif" transform="rotate(90 ${fmt(W + 7)} ${fmt(H / 2)})" text-anchor="middle">${fmt(area.heightMm)} mm</text>
</svg>`;
  const rows: Array<[string, string]> = [
    ['Product', `${p.productName} (${p.productSku})`],
    [
      'Variant',
      p.variantSku === p.productSku
        ? 'none selected'
        : `${p.variantSku}${p.colorName ? ` - ${p.colorName}` : ''}`,
    ],
    ['Technique', `${p.techniqueName} (${p.techniqueCode})`],
    ['Print position', p.position],
    ['Print area', `${fmt(area.widthMm)} x ${fmt(area.heightMm)} mm`],
    ['Logo size', `${fmt(place.width)} x ${fmt(place.height)} mm`],
    ['Logo position', `${fmt(place.x)} mm from left, ${fmt(place.y)} mm from top of the print area`],
    ['Quantity', String(p.quantity)],
    ['Drawing scale', scale === 1 ? '1:1' : `${fmt(scale * 100)} %`],
    ['Transaction', p.transactionId],
    ['Date', p.createdAt.toISOString().slice(0, 10)],
  ];
  return `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: 210mm 297mm; margin: 0 }
body { margin: 0; font-family: 'DejaVu Sans', sans-serif; font-size: 10pt; color: #222 }
.page { padding: 14mm 18mm }
h1 { font-size: 18pt; margin: 0 0 4mm }
h2 { font-size: 11pt; margin: 6mm 0 2mm }
table { border-collapse: collapse } td { padding: 1mm 3mm 1mm 0; vertical-align: top } td:first-child { color: #666 }
.sw { display: inline-block; margin-right: 4mm } .chip { display: inline-block; width: 4mm; height: 4mm; border: 0.2mm solid #999; margin-right: 1mm; vertical-align: middle }
.preview { width: 90mm; border: 0.2mm solid #ccc }
</style></head><body><div class="page">
<h1>Korrekturabzug / Proof</h1>
<table>${rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}
<tr><td>Colours</td><td>${swatches}</td></tr></table>
<h2>Print area (${fmt(area.widthMm)} x ${fmt(area.heightMm)} mm)</h2>
${drawing}
<h2>Preview</h2>
<img class="preview" src="data:image/png;base64,${p.screenshotPng.toString('base64')}">
</div></body></html>`;
}

/** A page exactly the size of the logo, for the EPS conversion. */
export function logoOnlyHtml(logo: { format: LogoFormat; data: Buffer; width: number; height: number }) {
  const widthMm = 100;
  const heightMm = (100 * logo.height) / logo.width;
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>@page{size:${widthMm}mm ${fmt(heightMm)}mm;margin:0}body{margin:0}</style></head><body>
<svg xmlns="http://www.w3.org/2000/svg" width="${widthMm}mm" height="${fmt(heightMm)}mm" viewBox="0 0 ${widthMm} ${fmt(heightMm)}" style="display:block">${logoElement(logo, { x: 0, y: 0, width: widthMm, height: Number(fmt(heightMm)) })}</svg></body></html>`;
  return { html, width: `${widthMm}mm`, height: `${fmt(heightMm)}mm` };
}
