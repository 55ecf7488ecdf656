/** Print styles of the A4 documents (margins come from page.pdf so the footer fits). */
export const DOCUMENT_CSS = `
@page { size: A4; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 9pt; color: #222; margin: 0; }
header.top { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 2px solid #1f4e79; padding-bottom: 4mm; }
.brand .logo { max-height: 22mm; max-width: 70mm; }
.brand .logo-text { font-size: 18pt; font-weight: bold; color: #1f4e79; }
.company { text-align: right; font-size: 8pt; line-height: 1.35; }
.company-name { font-weight: bold; font-size: 10pt; }
.registration { margin-top: 1.5mm; color: #444; }
section.parties { display: flex; justify-content: space-between; margin: 9mm 0 6mm; }
.customer { width: 85mm; line-height: 1.4; font-size: 10pt; }
.meta h1 { font-size: 17pt; margin: 0 0 2mm; color: #1f4e79; text-align: right; }
.meta table { border-collapse: collapse; margin-left: auto; }
.meta th { text-align: left; font-weight: normal; color: #555; padding: 0.4mm 4mm 0.4mm 0; }
.meta td { text-align: right; padding: 0.4mm 0; }
.doc-title { font-weight: bold; font-size: 10pt; }
.credit-note-ref { background: #f3f6fa; border-left: 3px solid #1f4e79; padding: 2mm 3mm; }
table.lines { width: 100%; border-collapse: collapse; margin-top: 3mm; }
table.lines thead th { background: #1f4e79; color: #fff; font-weight: bold; padding: 1.6mm 2mm; text-align: left; }
table.lines th.num, table.lines td.num { text-align: right; white-space: nowrap; }
table.lines td { padding: 1.6mm 2mm; vertical-align: top; border-bottom: 0.3mm solid #dde3ea; }
table.lines tr { page-break-inside: avoid; }
table.lines td.img { width: 20mm; }
table.lines td.img img { width: 18mm; height: 18mm; object-fit: contain; }
.line-desc { font-weight: bold; }
.line-detail { font-size: 8pt; color: #555; margin-top: 0.5mm; }
.sku { font-family: 'DejaVu Sans Mono', monospace; }
tr.setup td { font-size: 8pt; color: #444; background: #fafbfc; }
tr.text-line td { font-style: italic; }
section.totals { display: flex; justify-content: flex-end; margin-top: 4mm; page-break-inside: avoid; }
section.totals table { border-collapse: collapse; min-width: 85mm; }
section.totals th { text-align: left; font-weight: normal; padding: 1mm 4mm 1mm 0; }
section.totals td { text-align: right; padding: 1mm 0; white-space: nowrap; }
section.totals tr.grand th, section.totals tr.grand td { font-weight: bold; font-size: 11pt; border-top: 0.5mm solid #1f4e79; padding-top: 2mm; }
section.closing { margin-top: 7mm; line-height: 1.45; }
.terms h2 { font-size: 10pt; margin: 4mm 0 1mm; }
.terms p { font-size: 8pt; color: #444; }
.reverse-charge { border: 0.3mm solid #999; padding: 2mm 3mm; }
`;
