import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { CheckedImage } from '@aplt/images';

const safeSegment = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Return photos on disk, under RETURN_PHOTO_DIR: <tenant>/returns/<folder>/<slot>-<digest>.<ext>,
 * one random folder per return. Names come from the server only (tenant id, folder, slot,
 * digest), never from the upload; reads resolve inside the root or fail.
 */
export class ReturnPhotoStore {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  relativePath(tenantId: string, folder: string, slot: number, image: CheckedImage): string {
    const ext = image.format === 'jpeg' ? 'jpg' : 'png';
    return [
      safeSegment(tenantId),
      'returns',
      safeSegment(folder),
      `${slot}-${image.sha256.slice(0, 16)}.${ext}`,
    ].join('/');
  }

  async write(relative: string, data: Buffer): Promise<void> {
    const full = this.inside(relative);
    await mkdir(dirname(full), { recursive: true });
    const tmp = `${full}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, full);
  }

  async read(relative: string): Promise<Buffer | null> {
    try {
      return await readFile(this.inside(relative));
    } catch {
      return null;
    }
  }

  async remove(relative: string): Promise<void> {
    await unlink(this.inside(relative)).catch(() => {});
  }

  private inside(relative: string): string {
    const full = resolve(this.root, relative);
    if (!full.startsWith(this.root + sep)) throw new Error(`path outside the photo store: ${relative}`);
    return full;
  }
}
