import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PDF (vector) to EPS with Ghostscript's eps2write; -dSAFER keeps gs away from other files. */
export async function pdfToEps(pdf: Buffer, gsPath: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'logo-eps-'));
  try {
    const input = join(dir, 'in.pdf');
    const output = join(dir, 'out.eps');
    await writeFile(input, pdf);
    await run(
      gsPath,
      ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=eps2write', `-sOutputFile=${output}`, input],
      {
        timeout: 30_000,
      },
    );
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
