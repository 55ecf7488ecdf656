import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'aplt-import-';

/**
 * A spool directory for one import, named after this process (`aplt-import-<pid>-XXXXXX`), so a
 * later process can tell whether its owner is gone: a worker killed in the middle of a run
 * cannot remove its own, and a chunk of a products feed is tens of MB.
 */
export function makeSpoolDir(parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${PREFIX}${process.pid}-`));
}

/**
 * Removes the spool directories whose process no longer runs (called when a worker starts).
 * Directories of live processes (another worker on this host, this one) and names without a
 * pid are left alone. Returns the names removed.
 */
export async function removeOrphanedSpoolDirs(parent: string = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split('-')[0]) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    await rm(join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
