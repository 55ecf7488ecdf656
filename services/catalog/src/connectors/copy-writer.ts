import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import type { PgClient } from '@aplt/db';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { makeSpoolDir } from './spool-dirs';

export type Field = string | number | boolean | null | undefined;

// Characters that COPY's text format gives a meaning; NUL cannot be stored in a text value at all.
const special = /[\\\t\n\r\0]/;
const escapes: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' };

/** One value in COPY text format (\N for NULL). */
export function copyField(v: Field): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'string' ? v : String(v);
  return special.test(s) ? s.replace(/[\\\t\n\r\0]/g, (c) => escapes[c] as string) : s;
}

/**
 * A PostgreSQL array literal (`{"a","b",NULL}`), to be passed through copyField like any value:
 * strings are always quoted (a supplier's code may hold commas, braces or quotes), an absent
 * element is NULL. Parallel arrays stage a record's list without a JSON round trip.
 */
export function arrayLiteral(values: ReadonlyArray<Field>): string {
  let s = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) s += ',';
    if (v === null || v === undefined) s += 'NULL';
    else if (typeof v === 'string') s += `"${v.replace(/[\\"]/g, '\\$&')}"`;
    else s += String(v);
  }
  return s + '}';
}

/** One row in COPY text format, with its newline. */
export function copyLine(fields: Field[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) line += (i ? '\t' : '') + copyField(fields[i]);
  return line + '\n';
}

/**
 * Streams rows into `COPY ... FROM STDIN` on one client, in chunks of about 64 KB, waiting when
 * the socket is full, so the server ingests while the feed is still being parsed and memory stays
 * at one chunk. A refused COPY surfaces at the next write or at end().
 */
export class CopyWriter {
  private buffer = '';
  private rows = 0;
  private error: Error | null = null;

  private constructor(private readonly stream: ReturnType<typeof copyFrom>) {
    stream.on('error', (err: Error) => {
      this.error ??= err;
    });
  }

  static open(client: PgClient, statement: string): CopyWriter {
    return new CopyWriter(client.query(copyFrom(statement)));
  }

  async row(fields: Field[]): Promise<void> {
    this.buffer += copyLine(fields);
    this.rows++;
    if (this.buffer.length >= 65_536) await this.flush();
  }

  get count(): number {
    return this.rows;
  }

  private async flush(): Promise<void> {
    if (this.error) throw this.error;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Sends the rest and waits until the server has taken every row. */
  async end(): Promise<void> {
    await this.flush();
    this.stream.end();
    await finished(this.stream);
    if (this.error) throw this.error;
  }

  /** Cancels the COPY (the server rolls the statement back); used when the feed fails mid-way. */
  async abort(reason: Error): Promise<void> {
    this.stream.destroy(reason);
    await finished(this.stream).catch(() => {});
  }
}

/**
 * Rows formatted by copyLine, parked in a temporary file until the connection is free to COPY
 * them: however far parsing runs ahead of the database, memory stays at one 64 KB buffer.
 */
export class CopySpool {
  private buffer = '';
  private error: Error | null = null;
  private readonly out: WriteStream;

  constructor(readonly path: string) {
    this.out = createWriteStream(path);
    // A failed file (disk full) surfaces at the next write or at close(), never as a hang.
    this.out.on('error', (err: Error) => {
      this.error ??= err;
    });
  }

  async write(line: string): Promise<void> {
    this.buffer += line;
    if (this.buffer.length < 65_536) return;
    if (this.error) throw this.error;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end(this.buffer);
    this.buffer = '';
    await finished(this.out);
  }

  /** COPYs the spooled rows on `client` and removes the file. */
  async send(client: PgClient, statement: string): Promise<void> {
    try {
      await pipeline(createReadStream(this.path), client.query(copyFrom(statement)));
    } finally {
      await rm(this.path, { force: true });
    }
  }
}

/**
 * The rows of `query` (a SELECT, which may carry data-modifying CTEs) into a table by COPY both
 * ways, through a temporary file, on one connection inside its transaction. A large
 * INSERT ... SELECT writes row by row; COPY writes pages of rows at once, and the round trip
 * costs less than the difference (a first price run of 30,000 products, 540,000 tiers: the query
 * read out in 2.3 s and COPYed in in 3.4 s, against 6.3 s for the same INSERT ... SELECT).
 * Returns how many rows went in.
 */
export async function copyQueryInto(client: PgClient, query: string, into: string): Promise<number> {
  const dir = await makeSpoolDir();
  try {
    const file = join(dir, 'rows');
    await pipeline(client.query(copyTo(`COPY (${query}) TO STDOUT`)), createWriteStream(file));
    const copyIn = client.query(copyFrom(`COPY ${into} FROM STDIN`));
    await pipeline(createReadStream(file), copyIn);
    return copyIn.rowCount;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
