import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSpoolDir, removeOrphanedSpoolDirs } from '../src/connectors/spool-dirs';

/** The pid of a process that has exited (and was reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

describe('import spool directories', () => {
  let parent = '';
  afterEach(async () => {
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('removes the spools of stopped processes and keeps those of running ones', async () => {
    parent = await mkdtemp(join(tmpdir(), 'spool-parent-'));
    const own = await makeSpoolDir(parent);
    expect(own).toContain(`aplt-import-${process.pid}-`);
    const gone = await deadPid();
    const orphan = `aplt-import-${gone}-abc123`;
    await mkdir(join(parent, orphan));
    // The parent of this test process runs (vitest's main process): its spool stays.
    const sibling = `aplt-import-${process.ppid}-def456`;
    await mkdir(join(parent, sibling));
    // Names without a pid, and other directories, are not touched.
    await mkdir(join(parent, 'aplt-import-XyZ789'));
    await mkdir(join(parent, 'something-else'));

    expect(await removeOrphanedSpoolDirs(parent)).toEqual([orphan]);
    expect((await readdir(parent)).sort()).toEqual(
      [own.slice(parent.length + 1), sibling, 'aplt-import-XyZ789', 'something-else'].sort(),
    );
  });

  it('finds nothing to do in a missing directory', async () => {
    expect(await removeOrphanedSpoolDirs(join(tmpdir(), 'no-such-spool-parent'))).toEqual([]);
  });
});
