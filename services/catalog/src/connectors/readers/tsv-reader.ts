import { pipeline, type Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/**
 * How our tab-separated feeds are read with `csv-parse`: tab delimiter, RFC 4180 quoting (a
 * field in double quotes may hold tabs, line breaks and doubled quotes), a quote inside an
 * unquoted field kept as written (`12" tablet`), rows shorter or longer than the header
 * accepted, blank lines and a byte order mark skipped.
 */
export const tsvOptions: Options = {
  delimiter: '\t',
  quote: '"',
  escape: '"',
  bom: true,
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: true,
};

/**
 * The column names of a feed's first line (for the "yielded no records" message). The line may
 * be cut inside a quoted field (only the feed's first bytes are read): then the plain tab split
 * still names the columns the diagnosis is about.
 */
export function tsvHeader(line: string): string[] {
  let cells: string[];
  try {
    cells = (parseSync(line, { ...tsvOptions, to_line: 1 }) as string[][])[0] ?? [];
  } catch {
    cells = line.split('\t');
  }
  return cells.map((c) => c.trim());
}

/**
 * Tab-separated feeds (XD Connects style): the first line names the columns; every other line
 * becomes one record keyed by those names, cells trimmed, missing cells empty. Streamed through
 * `csv-parse`, so memory is one record.
 */
export async function* streamTsvRecords(input: Readable): AsyncGenerator<Record<string, string>> {
  // pipeline() destroys the parser when the input fails, so the loop below rejects.
  const rows = pipeline(input, parse(tsvOptions), () => {});
  let header: string[] | undefined;
  for await (const cells of rows as AsyncIterable<string[]>) {
    if (cells.every((c) => c.trim() === '')) continue;
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
