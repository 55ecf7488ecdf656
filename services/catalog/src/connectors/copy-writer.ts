import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { PgClient } from '@aplt/db';
import { from as copyFrom } from 'pg-copy-streams';

type Field = string | number | boolean | null | undefined;

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
    let line = '';
    for (let i = 0; i < fields.length; i++) line += (i ? '\t' : '') + copyField(fields[i]);
    this.buffer += line + '\n';
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
