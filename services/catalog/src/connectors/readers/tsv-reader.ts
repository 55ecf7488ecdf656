import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Tab-separated feeds (XD Connects style): the first line names the columns; every other line
 * becomes one record keyed by those names. Read line by line, so memory is one line.
 */
export async function* streamTsvRecords(input: Readable): AsyncGenerator<Record<string, string>> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: string[] | undefined;
  for await (const raw of lines) {
    const line = raw.replace(/^\uFEFF/, '');
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    if (!header) {
      header = cells.map((c) => c.trim());
      continue;
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => {
      record[name] = (cells[i] ?? '').trim();
    });
    yield record;
  }
}
