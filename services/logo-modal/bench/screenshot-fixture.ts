import sharp from 'sharp';
import { placeLogo } from '../src/catalog/geometry';
import { toteTemplate } from '../src/demo/demo-catalog';
import { sanitizeSvg } from '../src/files/svg-sanitize';
import { renderScreenshot } from '../src/render/screenshot';
import { vectorLogo } from '../test/helpers';

/**
 * The two screenshot renderers the benchmark compares on the same images: ours (SVG template and
 * SVG logo in, placed PNG out) and a plain sharp composite of the same two images already
 * rasterised to the sizes ours produces (composite + PNG encode only).
 */
export async function screenshotFixture(width: number) {
  const logo = {
    format: 'svg' as const,
    data: Buffer.from(await sanitizeSvg(vectorLogo)),
    width: 200,
    height: 100,
  };
  const box = { x: 180, y: 240, width: 240, height: 240 };
  const input = { templateSvg: await sanitizeSvg(toteTemplate), box, logo, placement: { scale: 0.7 } };
  const f = width / 600;
  const templatePng = await sharp(Buffer.from(input.templateSvg), { density: 72 * f })
    .resize({ width })
    .png()
    .toBuffer();
  const place = placeLogo(box, 2, { scale: 0.7 });
  const logoPng = await sharp(logo.data, { density: 72 * ((place.width * f) / 200) })
    .resize(Math.round(place.width * f), Math.round(place.height * f), {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
  return {
    plain: () =>
      sharp(templatePng)
        .composite([{ input: logoPng, left: Math.round(place.x * f), top: Math.round(place.y * f) }])
        .png()
        .toBuffer(),
    ours: () => renderScreenshot(input, width),
  };
}
