import createDOMPurify, { type DOMPurify } from 'dompurify';

/** Only in-document references (#id) or embedded raster data may be referenced. */
const SAFE_HREF = /^(#|data:image\/(png|jpeg|gif);base64,)/i;
/** url(...) in attributes or <style> must point inside the document. */
const EXTERNAL_URL = /url\(\s*(['"]?)\s*(?!#)[^)]*\)|@import/i;

// jsdom is loaded at the first SVG, not at start-up: its modules are about 35 MB of the
// service's resident memory, and most processes see no SVG for a long while.
let purifier: Promise<DOMPurify> | undefined;

async function makePurifier(): Promise<DOMPurify> {
  const { JSDOM } = await import('jsdom');
  const window = new JSDOM('').window;
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    if (name === 'href' || name === 'xlink:href' || name === 'src') {
      if (!SAFE_HREF.test(data.attrValue.trim())) data.keepAttr = false;
    } else if (EXTERNAL_URL.test(data.attrValue)) {
      data.keepAttr = false;
    }
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && EXTERNAL_URL.test(node.textContent ?? '')) node.textContent = '';
  });
  return purify;
}

export class SvgRejected extends Error {}

/**
 * Uploaded SVG logos are displayed in browsers and rendered into print files, so only drawing
 * remains: no scripts, event handlers, foreignObject, or references to anything outside the
 * document. DOMPurify's SVG profile does the element/attribute filtering; the hooks above close
 * external references, which the profile alone would keep.
 */
export async function sanitizeSvg(input: string): Promise<string> {
  if (!/<svg[\s>]/i.test(input)) throw new SvgRejected('The file is not an SVG image');
  // Entities and DOCTYPEs are how XML pulls in outside content; a logo never needs them.
  if (/<!DOCTYPE|<!ENTITY/i.test(input))
    throw new SvgRejected('SVG with DOCTYPE or entities is not accepted');
  const body = input
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[^>]*\?>/gi, '')
    .trim();
  const purify = await (purifier ??= makePurifier().catch((err: unknown) => {
    purifier = undefined;
    throw err;
  }));
  const clean = purify.sanitize(body, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'script', 'iframe', 'embed', 'object', 'audio', 'video', 'a'],
    FORBID_ATTR: ['onload', 'onerror', 'onclick', 'onmouseover', 'onbegin', 'onend'],
    ALLOW_DATA_ATTR: false,
    NAMESPACE: 'http://www.w3.org/2000/svg',
  });
  if (!/^<svg[\s>]/i.test(clean.trim())) throw new SvgRejected('The SVG contains no drawable content');
  const withNs = clean.includes('xmlns="http://www.w3.org/2000/svg"')
    ? clean
    : clean.replace(/^<svg/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  return withNs.includes('xlink:') && !withNs.includes('xmlns:xlink')
    ? withNs.replace(/^<svg/i, '<svg xmlns:xlink="http://www.w3.org/1999/xlink"')
    : withNs;
}
