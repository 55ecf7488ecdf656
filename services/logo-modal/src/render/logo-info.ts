import sharp from 'sharp';

export type LogoFormat = 'svg' | 'png' | 'jpeg';

export const logoContentTypes: Record<LogoFormat, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpeg: 'image/jpeg',
};
export const logoExtensions: Record<LogoFormat, string> = { svg: 'svg', png: 'png', jpeg: 'jpg' };

export interface LogoInfo {
  width: number;
  height: number;
  colors: string[];
}

const toHex = (r: number, g: number, b: number) =>
  `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

/** Colours a vector logo paints with (fill, stroke, stop-color), normalised to #RRGGBB. */
function svgColors(svg: string): string[] {
  const found = new Set<string>();
  const re = /(?:fill|stroke|stop-color|color)\s*[:=]\s*["']?\s*(#[0-9a-f]{3,6}\b|rgb\([^)]*\))/gi;
  for (const m of svg.matchAll(re)) {
    const v = (m[1] as string).toLowerCase();
    if (v.startsWith('rgb')) {
      const [r, g, b] = v
        .slice(4, -1)
        .split(',')
        .map((n) => Number.parseFloat(n));
      if ([r, g, b].every((n) => Number.isFinite(n))) found.add(toHex(r as number, g as number, b as number));
    } else if (v.length === 4) {
      found.add(`#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}`.toUpperCase());
    } else if (v.length === 7) found.add(v.toUpperCase());
  }
  // SVG paints black when nothing is specified.
  if (found.size === 0) found.add('#000000');
  return [...found].slice(0, 12);
}

/** Size and colours of an uploaded logo; throws when sharp cannot decode it. */
export async function inspectLogo(format: LogoFormat, data: Buffer): Promise<LogoInfo> {
  const img = sharp(data, { limitInputPixels: 50_000_000 });
  const meta = await img.metadata();
  if (!meta.width || !meta.height) throw new Error('Image has no size');
  if (format === 'svg')
    return { width: meta.width, height: meta.height, colors: svgColors(data.toString('utf8')) };
  const stats = await img.stats();
  // A flat image's mean is its exact colour; otherwise the dominant colour (sharp bins it coarsely).
  const [r, g, b] = stats.channels;
  const flat = r && g && b && r.stdev < 1 && g.stdev < 1 && b.stdev < 1;
  const color = flat
    ? toHex(r.mean, g.mean, b.mean)
    : toHex(stats.dominant.r, stats.dominant.g, stats.dominant.b);
  return { width: meta.width, height: meta.height, colors: [color] };
}

/** The format by magic bytes, never by the client's claim. */
export function sniffFormat(data: Buffer): LogoFormat | undefined {
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  // XML text whose first element is <svg>; prolog, comments and DOCTYPE may come first (the
  // sanitiser then decides whether they are acceptable).
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<') && !head.includes('\u0000')) {
    const firstElement = /<(?![?!])([a-zA-Z][\w:.-]*)/.exec(
      head.replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[\s\S]*?\]?>/i, ''),
    );
    if (firstElement?.[1]?.toLowerCase() === 'svg') return 'svg';
  }
  return undefined;
}
