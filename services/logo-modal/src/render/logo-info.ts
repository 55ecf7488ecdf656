import { loadSharp } from './sharp';
import { rasterColors, svgColors } from './logo-colors';

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

/** Size and colours of an uploaded logo (logo-colors.ts); throws when sharp cannot decode it. */
export async function inspectLogo(format: LogoFormat, data: Buffer): Promise<LogoInfo> {
  const sharp = await loadSharp();
  const meta = await sharp(data, { limitInputPixels: 50_000_000 }).metadata();
  if (!meta.width || !meta.height) throw new Error('Image has no size');
  const colors = format === 'svg' ? svgColors(data.toString('utf8')) : await rasterColors(data);
  return { width: meta.width, height: meta.height, colors };
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
