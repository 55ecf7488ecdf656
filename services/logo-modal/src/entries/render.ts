/** `@aplt/service-logo-modal/render`: proofs, screenshots and print files (the modal benchmark). */
export { BrowserPool } from '../render/browser';
export { pdfToEps } from '../render/eps';
export { logoOnlyHtml, proofHtml } from '../render/proof';
export { renderScreenshot } from '../render/screenshot';
export { sanitizeSvg } from '../files/svg-sanitize';
