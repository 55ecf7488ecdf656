/** `@aplt/service-documents/output`: a document rendered to HTML and PDF (the PDF benchmark). */
export { loadPrintableDocument } from '../output/document.service';
export { ImageEmbedder } from '../output/image-embed';
export { resolveChromiumPath } from '../output/output.config';
export { PDF_OPTIONS, renderPdf } from '../output/pdf.service';
export { footerTemplate, renderDocumentHtml } from '../output/templates/document.template';
