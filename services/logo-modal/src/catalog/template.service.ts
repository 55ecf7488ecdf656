import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { sanitizeSvg } from '../files/svg-sanitize';

const cache = new Map<string, Promise<string>>();
const MAX_TEMPLATE_BYTES = 5 * 1024 * 1024;

async function fetchTemplate(path: string, templateDir: string): Promise<string> {
  if (path.startsWith('data:')) {
    const m = /^data:image\/svg\+xml(;base64)?,(.*)$/s.exec(path);
    if (!m) throw new Error('Template data URL is not SVG');
    return m[1] ? Buffer.from(m[2] as string, 'base64').toString('utf8') : decodeURIComponent(m[2] as string);
  }
  if (/^https?:\/\//i.test(path)) {
    const res = await fetch(path, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`Template ${path} answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > MAX_TEMPLATE_BYTES) throw new Error(`Template ${path} is too large`);
    return body.toString('utf8');
  }
  return readFile(isAbsolute(path) ? path : resolve(templateDir, path), 'utf8');
}

/**
 * The product's SVG template (svg_template_path: a data: URL, an http(s) URL, or a file under
 * SVG_TEMPLATE_DIR), sanitised like an upload because it is served to browsers on our origin.
 * Templates change only with an import, so they are cached for the process lifetime.
 */
export function loadTemplate(path: string, templateDir: string): Promise<string> {
  let hit = cache.get(path);
  if (!hit) {
    hit = fetchTemplate(path, templateDir).then(sanitizeSvg);
    hit.catch(() => cache.delete(path));
    if (cache.size > 500) cache.clear();
    cache.set(path, hit);
  }
  return hit;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * Templates mark the shapes that take the product colour with class="variant-color"; a style rule
 * paints them in the chosen variant's colour, so preview and screenshot show the right product.
 */
export function withVariantColor(svg: string, hex: string | null | undefined): string {
  if (!hex || !HEX.test(hex)) return svg;
  return svg.replace(/<svg\b[^>]*>/i, (open) => `${open}<style>.variant-color{fill:${hex}}</style>`);
}
