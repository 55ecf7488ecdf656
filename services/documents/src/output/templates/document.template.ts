import type { DocumentLine, PrintableDocument } from '../document.model';
import { formatDate, formatMoney, formatRate, formatUnitPrice, type Labels, labels } from './labels';
import { DOCUMENT_CSS } from './document.styles';
import { EXPORT_NOTE } from '../../shared/vat';
import { escapeHtml as esc } from '@aplt/http';

const multiline = (text: string) => esc(text).replace(/\r?\n/g, '<br>');

// The page may load nothing from anywhere: images arrive as data: URIs, styles inline.
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

/** Full HTML of one document; the same template serves all four kinds and three languages. */
export function renderDocumentHtml(doc: PrintableDocument): string {
  const l = labels[doc.language];
  return `<!doctype html>
<html lang="${doc.language}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${esc(titleOf(doc))} ${esc(doc.number)}</title>
<style>${DOCUMENT_CSS}</style>
</head>
<body class="kind-${doc.kind}">
${headerBlock(doc)}
${addressAndMeta(doc, l)}
${doc.kind === 'credit_note' && doc.credited ? creditBlock(doc, l) : ''}
${linesTable(doc, l)}
${totalsBlock(doc, l)}
${closingBlock(doc, l)}
</body>
</html>`;
}

const titleOf = (doc: PrintableDocument) =>
  doc.proforma ? labels[doc.language].proforma : labels[doc.language].title[doc.kind];

/** Footer printed by the browser on every page (page numbers need its counters). */
export function footerTemplate(doc: PrintableDocument): string {
  const l = labels[doc.language];
  const c = doc.company;
  const parts = [
    c.name,
    c.cocNumber ? `${l.coc} ${c.cocNumber}` : '',
    c.vatNumber ? `${l.vatNumber} ${c.vatNumber}` : '',
    c.iban ? `${l.iban} ${c.iban}` : '',
  ].filter(Boolean);
  return `<div style="font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 7px; color: #666; width: 100%;
    padding: 0 14mm; display: flex; justify-content: space-between;">
    <span>${parts.map(esc).join(' &middot; ')}</span>
    <span>${esc(l.page)} <span class="pageNumber"></span> ${esc(l.of)} <span class="totalPages"></span></span>
  </div>`;
}

function headerBlock(doc: PrintableDocument): string {
  const c = doc.company;
  const l = labels[doc.language];
  const contact = [
    c.address,
    [c.postalCode, c.city].filter(Boolean).join(' '),
    c.country !== 'NL' ? c.country : '',
    c.phone ? `${l.phone} ${c.phone}` : '',
    c.email ?? '',
    c.website ?? '',
  ].filter(Boolean);
  const registration = [
    c.cocNumber ? `${l.coc}: ${c.cocNumber}` : '',
    c.vatNumber ? `${l.vatNumber}: ${c.vatNumber}` : '',
    c.iban ? `${l.iban}: ${c.iban}` : '',
    c.bic ? `${l.bic}: ${c.bic}` : '',
  ].filter(Boolean);
  const logo = doc.logo
    ? `<img class="logo" src="${esc(doc.logo)}" alt="">`
    : `<div class="logo-text">${esc(c.name)}</div>`;
  return `<header class="top">
  <div class="brand">${logo}</div>
  <div class="company">
    <div class="company-name">${esc(c.name)}</div>
    ${contact.map((line) => `<div>${esc(line)}</div>`).join('')}
    <div class="registration">${registration.map((line) => `<div>${esc(line)}</div>`).join('')}</div>
  </div>
</header>`;
}

function addressAndMeta(doc: PrintableDocument, l: Labels): string {
  const cu = doc.customer;
  const address = [
    cu.company,
    cu.name && cu.name !== cu.company ? cu.name : null,
    ...cu.addressLines,
    [cu.postalCode, cu.city].filter(Boolean).join(' '),
    cu.country !== doc.company.country ? cu.country : null,
    cu.vatNumber ? `${l.vatNumber}: ${cu.vatNumber}` : null,
  ].filter((x): x is string => Boolean(x));
  const meta: Array<[string, string]> = [
    [l.number, doc.number],
    [l.date, formatDate(doc.date, doc.language)],
  ];
  if (doc.validUntil) meta.push([l.validUntil, formatDate(doc.validUntil, doc.language)]);
  if (doc.dueDate && doc.kind === 'invoice') meta.push([l.dueDate, formatDate(doc.dueDate, doc.language)]);
  if (doc.deliveryDate) meta.push([l.deliveryDate, formatDate(doc.deliveryDate, doc.language)]);
  if (doc.customer.customerNumber) meta.push([l.customerNumber, doc.customer.customerNumber]);
  if (doc.orderNumber && l.orderRef[doc.kind]) meta.push([l.orderRef[doc.kind], doc.orderNumber]);
  if (doc.reference) meta.push([l.reference, doc.reference]);
  return `<section class="parties">
  <div class="customer">${address.map((line) => `<div>${esc(line)}</div>`).join('')}</div>
  <div class="meta">
    <h1>${esc(titleOf(doc))}</h1>
    <table>${meta.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
  </div>
</section>
${doc.title ? `<p class="doc-title">${esc(doc.title)}</p>` : ''}`;
}

function creditBlock(doc: PrintableDocument, l: Labels): string {
  const credited = doc.credited!;
  return `<p class="credit-note-ref">${esc(l.credits(credited.number, formatDate(credited.date, doc.language)))}${
    doc.creditReason ? `<br>${esc(l.creditReason)}: ${esc(doc.creditReason)}` : ''
  }</p>`;
}

function linesTable(doc: PrintableDocument, l: Labels): string {
  const withImages = doc.kind === 'quotation' && doc.lines.some((line) => line.image);
  const rows = doc.lines.map((line) => lineRows(doc, line, l, withImages)).join('');
  return `<table class="lines">
  <thead><tr>
    ${withImages ? '<th class="img"></th>' : ''}
    <th class="desc">${esc(l.description)}</th>
    <th class="num">${esc(l.quantity)}</th>
    <th class="num">${esc(l.unitPrice)}</th>
    <th class="num">${esc(l.vat)}</th>
    <th class="num">${esc(l.amount)}</th>
  </tr></thead>
  <tbody>${rows}</tbody>
</table>`;
}

function lineRows(doc: PrintableDocument, line: DocumentLine, l: Labels, withImages: boolean): string {
  const lang = doc.language;
  const cur = doc.currency;
  if (line.lineType === 'text') {
    return `<tr class="text-line">${withImages ? '<td></td>' : ''}<td colspan="5">${multiline(line.description ?? '')}</td></tr>`;
  }
  const details: string[] = [];
  if (line.sku) details.push(`<span class="sku">${esc(line.sku)}</span>`);
  if (line.techniqueName) {
    const print = [
      line.techniqueName,
      line.printPosition ? `${l.position} ${line.printPosition}` : '',
      line.printArea ? `${line.printArea}` : '',
      line.printColours ? `${line.printColours} ${l.colours}` : '',
    ].filter(Boolean);
    const printPrice =
      Number(line.printUnitPrice) > 0
        ? ` (${l.printPrice} ${formatUnitPrice(line.printUnitPrice, lang, cur)})`
        : '';
    details.push(
      `<span class="technique">${esc(l.technique)}: ${esc(print.join(', '))}${esc(printPrice)}</span>`,
    );
  }
  if (Number(line.discountPercent) > 0) {
    details.push(
      `<span class="discount">${esc(l.discount)} ${esc(formatRate(line.discountPercent, lang))}%</span>`,
    );
  }
  const image = withImages
    ? `<td class="img">${line.image ? `<img src="${esc(line.image)}" alt="">` : ''}</td>`
    : '';
  const main = `<tr class="line">${image}
    <td class="desc"><div class="line-desc">${multiline(line.description ?? '')}</div>${details
      .map((d) => `<div class="line-detail">${d}</div>`)
      .join('')}</td>
    <td class="num">${line.quantity}</td>
    <td class="num">${esc(formatUnitPrice(line.unitPrice, lang, cur))}</td>
    <td class="num">${esc(formatRate(line.vatRate, lang))}%</td>
    <td class="num">${esc(formatMoney(line.lineTotal, lang, cur))}</td>
  </tr>`;
  const setups = line.setupCosts
    .map(
      (s) => `<tr class="setup">${withImages ? '<td></td>' : ''}
    <td class="desc">${esc(l.setupCosts)}: ${esc(s.description)}</td>
    <td class="num">${s.quantity}</td>
    <td class="num">${esc(formatUnitPrice(s.unitCost, lang, cur))}</td>
    <td class="num">${esc(formatRate(s.vatRate, lang))}%</td>
    <td class="num">${esc(formatMoney(s.total, lang, cur))}</td>
  </tr>`,
    )
    .join('');
  return main + setups;
}

function totalsBlock(doc: PrintableDocument, l: Labels): string {
  const lang = doc.language;
  const m = (v: string) => esc(formatMoney(v, lang, doc.currency));
  const t = doc.totals;
  const rows: string[] = [`<tr><th>${esc(l.subtotal)}</th><td>${m(t.subtotal)}</td></tr>`];
  if (Number(t.setupCostTotal) > 0)
    rows.push(`<tr><th>${esc(l.setupCosts)}</th><td>${m(t.setupCostTotal)}</td></tr>`);
  if (Number(t.shippingCost) > 0)
    rows.push(`<tr><th>${esc(l.shipping)}</th><td>${m(t.shippingCost)}</td></tr>`);
  if (Number(t.discountTotal) > 0)
    rows.push(`<tr><th>${esc(l.discount)}</th><td>- ${m(t.discountTotal)}</td></tr>`);
  for (const v of doc.vat) {
    const label =
      v.category === 'AE' || v.category === 'G'
        ? `${v.category === 'AE' ? l.reverseCharge : l.exportOutsideEu} (${formatMoney(v.taxable, lang, doc.currency)})`
        : l.vatOver(formatRate(v.rate, lang), formatMoney(v.taxable, lang, doc.currency));
    rows.push(`<tr class="vat"><th>${esc(label)}</th><td>${m(v.vat)}</td></tr>`);
  }
  rows.push(`<tr class="grand"><th>${esc(l.total)}</th><td>${m(t.total)}</td></tr>`);
  return `<section class="totals"><table>${rows.join('')}</table></section>`;
}

function closingBlock(doc: PrintableDocument, l: Labels): string {
  const parts: string[] = [];
  if (doc.zeroRating === 'AE') {
    parts.push(
      `<p class="reverse-charge"><strong>${esc(l.reverseCharge)}</strong>${
        doc.vatNote ? ` &mdash; ${esc(doc.vatNote)}` : ''
      }${doc.customer.vatNumber ? `<br>${esc(l.vatNumber)}: ${esc(doc.customer.vatNumber)}` : ''}</p>`,
    );
  } else if (doc.zeroRating === 'G') {
    parts.push(
      `<p class="export"><strong>${esc(l.exportOutsideEu)}</strong>${
        doc.vatNote && doc.vatNote !== EXPORT_NOTE ? ` &mdash; ${esc(doc.vatNote)}` : ''
      }</p>`,
    );
  } else if (doc.vatNote) {
    parts.push(`<p>${esc(doc.vatNote)}</p>`);
  }
  if (doc.kind === 'invoice' && doc.dueDate) {
    const days = doc.paymentTermDays ?? 30;
    const name = doc.paymentTermName ? `${doc.paymentTermName}. ` : '';
    parts.push(
      `<p class="payment-terms">${esc(name)}${esc(
        l.paymentTerms(days, formatDate(doc.dueDate, doc.language), doc.number, doc.company.iban),
      )}</p>`,
    );
  }
  if (doc.kind === 'quotation' && doc.terms) {
    parts.push(`<section class="terms"><h2>${esc(l.terms)}</h2><p>${multiline(doc.terms)}</p></section>`);
  }
  if (doc.notes) parts.push(`<p class="notes">${multiline(doc.notes)}</p>`);
  return `<section class="closing">${parts.join('')}</section>`;
}
