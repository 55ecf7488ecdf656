import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyLine, CopySpool } from '../src/connectors/copy-writer';

describe('CopySpool (parsed chunks waiting for the connection)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spool-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the rows in COPY text format, escaped, in order', async () => {
    const spool = new CopySpool(join(dir, 'rows'));
    const big = 'x'.repeat(70_000); // more than one buffer
    await spool.write(copyLine(['a\tb', null, 3, true]));
    await spool.write(copyLine([big]));
    await spool.write(copyLine(['line\nbreak\\']));
    await spool.close();
    expect(await readFile(spool.path, 'utf8')).toBe(`a\\tb\t\\N\t3\ttrue\n${big}\nline\\nbreak\\\\\n`);
  });

  it('fails the next write when its file could not be written, instead of waiting for ever', async () => {
    const spool = new CopySpool(join(dir, 'missing-dir', 'rows'));
    // The failed open is reported asynchronously: wait for that event itself, then write.
    const error = await once(spool['out'], 'error');
    expect(error[0]).toMatchObject({ code: 'ENOENT' });
    await expect(spool.write(copyLine(['y'.repeat(70_000)]))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(spool.close()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
