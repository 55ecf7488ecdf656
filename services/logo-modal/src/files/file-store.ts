import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';

/**
 * Where generated and uploaded files live. One interface so an object store can replace the
 * local directory without touching the services; keys are `transactions/<uuid>/<name>`.
 */
export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;
  /** undefined when the key does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes every file under the prefix (a transaction's folder). */
  deletePrefix(prefix: string): Promise<void>;
}

export class LocalFileStore implements FileStore {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  /** Keys come from our own code, but a key must never leave the root whatever it holds. */
  private path(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`Invalid file key ${key}`);
    return p;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, data);
    // Rename is atomic: a reader sees the old file or the whole new one, never half.
    await rename(tmp, p);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix), { recursive: true, force: true });
  }
}
