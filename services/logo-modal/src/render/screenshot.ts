import { createHash } from 'node:crypto';
import { loadSharp } from './sharp';
import { type Box, placeLogo } from '../catalog/geometry';
import type { LogoFormat } from './logo-info';

const rasters = new Map<string, Promise<{ png: Buffer; factor: number }>>();

/**
 * The template rasterised at the wanted width. Every order of a product reuses it, so it is
 * memoised (by content and width, a few dozen entries); rasterising SVG is most of the cost.
 */
function rasterTemplate(svg: string, width: number): Promise<{ png: Buffer; factor: number }> {
  const key = `${createHash('sha1').update(svg).digest('hex')}:${width}`;
  let hit = rasters.get(key);
  if (!hit) {
    hit = (async () => {
      const template = Buffer.from(svg);
      const sharp = await loadSharp();
      const meta = await sharp(template).metadata();
      const factor = width / (meta.width ?? width);
      const png = await sharp(template, { density: Math.min(72 * factor, 2400) })
        .resize({ width })
        .png({ compressionLevel: 1 })
        .toBuffer();
      return { png, factor };
    })();
    hit.catch(() => rasters.delete(key));
    if (rasters.size >= 64) rasters.delete(rasters.keys().next().value as string);
    rasters.set(key, hit);
  }
  return hit;
}

export interface ScreenshotInput {
  templateSvg: string;
  /** Print area on the template, in template units. */
  box: Box;
  logo: { format: LogoFormat; data: Buffer; width: number; height: number };
  placement: { scale?: number; x?: number; y?: number };
}

/**
 * The product preview: the SVG template rasterised at the wanted width with the logo composited
 * into the print area. Done by sharp (libvips) alone: no browser, so it is cheap enough to run
 * for every 'Add to Order'.
 */
export async function renderScreenshot(input: ScreenshotInput, targetWidth: number): Promise<Buffer> {
  const { png, factor } = await rasterTemplate(input.templateSvg, targetWidth);
  const sharp = await loadSharp();
  const base = sharp(png);
  const place = placeLogo(input.box, input.logo.width / input.logo.height, input.placement);
  const w = Math.max(1, Math.round(place.width * factor));
  const h = Math.max(1, Math.round(place.height * factor));
  const logoDensity =
    input.logo.format === 'svg' ? Math.min(2400, Math.max(72, (72 * w) / input.logo.width)) : undefined;
  const logo = await sharp(input.logo.data, logoDensity ? { density: logoDensity } : {})
    .resize(w, h, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  return base
    .composite([{ input: logo, left: Math.round(place.x * factor), top: Math.round(place.y * factor) }])
    .png()
    .toBuffer();
}

export const SCREENSHOT_WIDTH = 800;
export const SCREENSHOT_HQ_WIDTH = 2400;
