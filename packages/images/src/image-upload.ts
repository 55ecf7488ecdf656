// Upload checks shared by the auth service (avatars) and the documents service (return photos).
import { createHash } from 'node:crypto';
import { HttpError, unprocessable } from '@aplt/http';
import type { OutputInfo } from 'sharp';

export type ImageFormat = 'jpeg' | 'png';

export interface CheckedImage {
  format: ImageFormat;
  contentType: 'image/jpeg' | 'image/png';
  /** The upload decoded and encoded again: no metadata (EXIF location, comments), orientation applied. */
  data: Buffer;
  width: number;
  height: number;
  sha256: string;
}

/** What the first bytes say, never the file name or the client's content type. */
export function sniffImage(data: Buffer): ImageFormat | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  return undefined;
}

/**
 * Accepts a JPEG or PNG by its content: the magic bytes name the format, sharp (libvips) must
 * agree and decode the whole image within `maxPixels` (a small file can claim a huge canvas), and
 * the result is encoded again within `maxSide` pixels. Anything else is a 415 (not JPEG/PNG) or a
 * 422 (claims to be one but does not decode), naming `label`.
 */
export async function checkImage(
  data: Buffer,
  opts: { label: string; maxPixels: number; maxSide: number },
): Promise<CheckedImage> {
  const format = sniffImage(data);
  if (!format) {
    throw new HttpError(415, 'unsupported_media_type', `${opts.label} is not a JPEG or PNG image`, {
      accepted: ['image/jpeg', 'image/png'],
    });
  }
  // Loaded at the first upload, not at start-up: libvips and its bindings are 9 MB of resident
  // memory in services that mostly never see an image.
  const { default: sharp } = await import('sharp');
  const input = () => sharp(data, { limitInputPixels: opts.maxPixels, failOn: 'warning' });
  let width: number | undefined;
  let height: number | undefined;
  let detected: string | undefined;
  try {
    const meta = await input().metadata();
    ({ width, height, format: detected } = meta);
  } catch {
    throw unprocessable(`${opts.label} could not be read as an image`);
  }
  if (detected !== format || !width || !height) {
    throw unprocessable(`${opts.label} could not be read as an image`);
  }
  if (width * height > opts.maxPixels) {
    throw unprocessable(`${opts.label} has too many pixels (${width} x ${height})`, {
      max_pixels: opts.maxPixels,
    });
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    const pipeline = input()
      .rotate()
      .resize({ width: opts.maxSide, height: opts.maxSide, fit: 'inside', withoutEnlargement: true });
    out = await (
      format === 'jpeg' ? pipeline.jpeg({ quality: 88 }) : pipeline.png({ compressionLevel: 9 })
    ).toBuffer({
      resolveWithObject: true,
    });
  } catch {
    throw unprocessable(`${opts.label} could not be decoded`);
  }
  return {
    format,
    contentType: format === 'jpeg' ? 'image/jpeg' : 'image/png',
    data: out.data,
    width: out.info.width,
    height: out.info.height,
    sha256: createHash('sha256').update(out.data).digest('hex'),
  };
}
