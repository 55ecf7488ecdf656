import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineSplitter, serviceStdio } from '../fleet/run-fleet';

const dir = mkdtempSync(join(tmpdir(), 'aplt-service-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process like a service: lines on stdout and stderr. */
async function run(logs: Parameters<typeof serviceStdio>[1], text: string) {
  const output = serviceStdio('svc', logs);
  const script = `process.stdout.write(${JSON.stringify(text)}); process.stderr.write('err line\\n');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', output.out, output.out] });
  output.spawned();
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  child.stderr?.on('data', (c: Buffer) => chunks.push(c));
  await once(child, 'close');
  return Buffer.concat(chunks).toString();
}

describe('service output of the fleet runner', () => {
  it('writes a service straight into its own append-only file, no pipe through the runner', async () => {
    const piped = await run({ dir }, '{"msg":"one"}\n{"msg":"two"}\n');
    expect(piped).toBe(''); // nothing passed through this process
    await run({ dir }, '{"msg":"three"}\n');
    expect(readFileSync(join(dir, 'svc.log'), 'utf8').split('\n').filter(Boolean).sort()).toEqual(
      ['{"msg":"one"}', '{"msg":"two"}', '{"msg":"three"}', 'err line', 'err line'].sort(),
    );
  });

  it('pipes only when asked (the interactive start prefixes the lines)', async () => {
    expect(await run('pipe', 'a\n')).toContain('a\n');
    expect(await run(undefined, 'a\n')).toBe('');
  });

  it('gives the prefixer whole lines when a chunk ends inside one', () => {
    const lines: string[] = [];
    const split = lineSplitter((l) => lines.push(l));
    for (const chunk of ['{"a":', '1}\n{"b"', ':2}\n\n', '{"c":3}\n']) split(Buffer.from(chunk));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});
