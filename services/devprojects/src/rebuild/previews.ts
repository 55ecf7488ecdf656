import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, rename, rm, stat, symlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { join, sep } from 'node:path';

/** A tenant id or a project code as a directory name: never a path of its own. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export interface CopyLimits {
  maxBytes: number;
  maxFiles: number;
  /** Only files of this owner are copied (the build user, when the service runs as root). */
  owner?: number | undefined;
}

export class OutputTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputTooLargeError';
  }
}

/** What a preview path resolves to: a file to send, a directory without a trailing slash, or nothing. */
export type PreviewHit = { kind: 'file'; path: string; size: number } | { kind: 'redirect' } | null;

/**
 * The built previews on disk, per tenant and project code:
 *
 *     <root>/<tenant>/<code>/releases/<deployment id>/...   one per kept build
 *     <root>/<tenant>/<code>/current -> releases/<id>        the live preview (a relative symlink)
 *
 * A build's output is copied into `releases/.partial-<id>` (regular files and directories only:
 * symlinks and hard links are left out, so nothing served can point outside the release), renamed to
 * `releases/<id>` when complete, and `current` is switched with a rename of a new symlink over the
 * old one: a reader sees the old preview or the new one, never half of either. A failed build
 * never touches `current`. The two newest releases besides the live one are kept.
 */
export class PreviewStore {
  constructor(readonly root: string) {}

  projectDir(tenant: string, code: string): string {
    if (!SAFE_NAME.test(tenant) || !SAFE_NAME.test(code))
      throw new Error(`Unsafe preview name ${tenant}/${code}`);
    return join(this.root, tenant, code);
  }

  /**
   * Copies a build's output directory into a new partial release; returns its path and what was
   * copied. Throws OutputTooLargeError past the limits (the partial copy is removed).
   */
  async stage(
    tenant: string,
    code: string,
    deploymentId: number,
    from: string,
    limits: CopyLimits,
  ): Promise<{ dir: string; files: number; bytes: number; skipped: string[] }> {
    const releases = join(this.projectDir(tenant, code), 'releases');
    await mkdir(releases, { recursive: true });
    const dir = join(releases, `.partial-${deploymentId}`);
    await rm(dir, { recursive: true, force: true });
    const tally = { files: 0, bytes: 0, skipped: [] as string[] };
    try {
      await copyTree(from, dir, '', limits, tally);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    return { dir, ...tally };
  }

  /** Makes a staged release the live preview (atomic switch of `current`) and prunes old releases. */
  async publish(tenant: string, code: string, deploymentId: number, staged: string): Promise<void> {
    const base = this.projectDir(tenant, code);
    const release = join(base, 'releases', String(deploymentId));
    await rm(release, { recursive: true, force: true });
    await rename(staged, release);
    const next = join(base, `.current-${deploymentId}`);
    await rm(next, { force: true });
    await symlink(join('releases', String(deploymentId)), next);
    await rename(next, join(base, 'current'));
    await this.prune(base, deploymentId);
  }

  async discard(staged: string): Promise<void> {
    await rm(staged, { recursive: true, force: true });
  }

  /** The deployment id of the live preview, or null when there is none. */
  async live(tenant: string, code: string): Promise<number | null> {
    try {
      const target = await readlink(join(this.projectDir(tenant, code), 'current'));
      const id = Number(target.split(/[\\/]/).pop());
      return Number.isSafeInteger(id) ? id : null;
    } catch {
      return null;
    }
  }

  /**
   * Resolves decoded path segments inside the live preview. Segments must already be free of
   * `.`, `..`, separators and NUL (the route refuses those); the resolved real path must still lie
   * inside the release, so not even a symlink that slipped in could lead out. A directory gives
   * its index.html; a directory asked for without a trailing slash asks for a redirect.
   */
  async resolve(
    tenant: string,
    code: string,
    segments: string[],
    trailingSlash: boolean,
  ): Promise<PreviewHit> {
    let root: string;
    try {
      root = await realpath(join(this.projectDir(tenant, code), 'current'));
    } catch {
      return null;
    }
    const inside = (p: string) => p === root || p.startsWith(root + sep);
    let real: string;
    try {
      real = await realpath(join(root, ...segments));
    } catch {
      return null;
    }
    if (!inside(real)) return null;
    let info = await stat(real);
    if (info.isDirectory()) {
      if (!trailingSlash && segments.length > 0) return { kind: 'redirect' };
      try {
        real = await realpath(join(real, 'index.html'));
      } catch {
        return null;
      }
      if (!inside(real)) return null;
      info = await stat(real);
    }
    if (!info.isFile()) return null;
    return { kind: 'file', path: real, size: info.size };
  }

  private async prune(base: string, liveId: number): Promise<void> {
    const releases = join(base, 'releases');
    const ids = (await readdir(releases))
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .filter((id) => id !== liveId)
      .sort((a, b) => b - a);
    for (const id of ids.slice(2)) await rm(join(releases, String(id)), { recursive: true, force: true });
  }
}

async function copyTree(
  from: string,
  to: string,
  rel: string,
  limits: CopyLimits,
  tally: { files: number; bytes: number; skipped: string[] },
): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from)) {
    const src = join(from, entry);
    const relPath = rel ? `${rel}/${entry}` : entry;
    const info = await lstat(src);
    if (info.isDirectory()) {
      await copyTree(src, join(to, entry), relPath, limits, tally);
    } else if (info.isFile()) {
      // Opened without following a symlink that replaced the file since lstat, and checked on
      // the open file: a hard link to someone else's file (nlink > 1, or another owner) is not
      // the build's output.
      const file = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
      if (!file) {
        tally.skipped.push(relPath);
        continue;
      }
      try {
        const st = await file.stat();
        if (!st.isFile() || st.nlink > 1 || (limits.owner !== undefined && st.uid !== limits.owner)) {
          tally.skipped.push(relPath);
          continue;
        }
        tally.files++;
        tally.bytes += st.size;
        if (tally.files > limits.maxFiles)
          throw new OutputTooLargeError(`The built output has more than ${limits.maxFiles} files`);
        if (tally.bytes > limits.maxBytes)
          throw new OutputTooLargeError(`The built output is larger than ${limits.maxBytes} bytes`);
        await pipeline(
          file.createReadStream({ autoClose: false }),
          createWriteStream(join(to, entry), { flags: 'wx' }),
        );
      } finally {
        await file.close();
      }
    } else {
      // Symlinks, sockets, FIFOs: not part of a static preview.
      tally.skipped.push(relPath);
    }
  }
}
