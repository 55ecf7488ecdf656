import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApltDatabase, PgClient, Transaction } from '@aplt/db';
import { copyLine, CopySpool, CopyWriter, type Field } from './copy-writer';
import type { Counts } from './import.repository';
import type { Parsed } from './mappers/parsed';
import type { Reject, RunReport } from './run-report';
import { withSavepoint } from './savepoint';
import { makeSpoolDir } from './spool-dirs';
import { stagedRow } from './staged-import.repository';

export type Trx = Transaction<ApltDatabase>;

/** How often (in staged rows) the progress figures are written while a feed streams in. */
const PROGRESS_EVERY = 10_000;

/**
 * What `stage` makes of a feed record: the fields to stage, a reject for the report, or `unchanged`
 * when the record is known to match what it wrote last time (nothing is staged, it is counted).
 */
export type Staged = Field[] | Reject | 'unchanged';

/**
 * Reads the feed: reports its rejects, hands every row `stage` accepts to `write` (its position
 * among the staged rows is its ord), calls `afterRow` after each record and writes the progress
 * figures every PROGRESS_EVERY rows. Returns how many rows were staged.
 */
export async function stageRows<T>(
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Staged,
  write: (fields: Field[]) => Promise<void>,
  afterRow: (staged: number) => Promise<void> = async () => {},
): Promise<number> {
  let staged = 0;
  let progressAt = 0;
  for await (const parsed of rows) {
    report.read(parsed.rowNumber);
    if ('reject' in parsed) report.reject({ rowNumber: parsed.rowNumber, ...parsed.reject });
    else {
      const fields = stage(parsed.row, staged, parsed.rowNumber);
      if (Array.isArray(fields)) {
        await write(fields);
        staged++;
      } else if (fields === 'unchanged') report.add({ inserted: 0, updated: 0, unchanged: 1 });
      else report.reject(fields);
    }
    await afterRow(staged);
    if (report.pendingRejects >= 1000 || staged - progressAt >= PROGRESS_EVERY) {
      progressAt = staged;
      await report.flush();
    }
  }
  report.feedRead();
  return staged;
}

/**
 * Streams mapped rows into COPY; a feed that fails mid-way cancels the COPY, so the transaction
 * can roll back. Returns how many rows were staged.
 */
export async function stream<T>(
  client: PgClient,
  statement: string,
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Staged,
): Promise<number> {
  const copy = CopyWriter.open(client, statement);
  try {
    await stageRows(rows, report, stage, (fields) => copy.row(fields));
    await copy.end();
  } catch (err) {
    await copy.abort(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  return copy.count;
}

/**
 * Like stream(), but in chunks that the server writes while the rest of the feed is parsed: each
 * chunk is spooled to a temporary file here, then COPYed to the stage and applied, one after the
 * other on the run's connection. Parsing never waits for the database, and the database starts
 * writing after the first chunk instead of after the whole feed.
 */
export async function streamInChunks<T>(
  client: PgClient,
  statement: string,
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Staged,
  chunkRows: number,
  apply: (lo: number, hi: number) => Promise<void>,
): Promise<{ count: number; readAt: number }> {
  const dir = await makeSpoolDir();
  let spool = new CopySpool(join(dir, '0'));
  let chunkStart = 0;
  let server: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  /** Closes the current spool (rows up to `hi`) and queues its COPY and apply behind the chunks before it. */
  const ship = async (hi: number) => {
    // A chunk the server could not write ends the run now, not after the rest of the feed.
    if (failure) throw failure.error;
    const [done, lo] = [spool, chunkStart];
    [spool, chunkStart] = [new CopySpool(join(dir, String(hi))), hi];
    await done.close();
    server = server.then(async () => {
      await done.send(client, statement);
      await apply(lo, hi);
    });
    server.catch((error: unknown) => (failure ??= { error }));
  };
  try {
    const count = await stageRows(
      rows,
      report,
      stage,
      (fields) => spool.write(copyLine(fields)),
      async (staged) => {
        if (staged - chunkStart >= chunkRows) await ship(staged);
      },
    );
    const readAt = performance.now();
    if (count > chunkStart) await ship(count);
    await server;
    return { count, readAt };
  } catch (err) {
    await server.catch(() => {}); // the connection must be idle before the transaction rolls back
    throw err;
  } finally {
    await spool.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Rejects found by a set-based step (`page`: the next page after a feed position), into the
 * report a page at a time, so memory stays at one page however many there are.
 */
export async function reportStagedRejects(
  report: RunReport,
  page: (
    afterOrd: number,
    limit: number,
  ) => Promise<Array<{ ord: number; row_number: number; key: string; reason: string; raw: unknown }>>,
): Promise<void> {
  for (let after = -1; ;) {
    const rows = await page(after, 5000);
    if (rows.length === 0) break;
    for (const r of rows)
      report.reject({ rowNumber: r.row_number, key: r.key, reason: r.reason, raw: r.raw });
    after = rows[rows.length - 1]!.ord;
    await report.flush();
  }
}

export async function refusedRow(
  trx: Trx,
  table: 'aplt_stage_products' | 'aplt_stage_stock',
  ord: number,
  reason: string,
): Promise<Reject> {
  const row = await stagedRow(trx, table, ord);
  return {
    rowNumber: row?.row_number ?? 0,
    key: row?.key,
    reason: `refused by the database: ${reason}`,
    raw: row?.raw ?? null,
  };
}

/**
 * Applies staged rows [lo, hi) in one set-based step under a savepoint. When the database refuses
 * it (a row breaks a constraint), the range is halved until the refused rows stand alone: they go
 * to the report, every other row is written. A clean feed costs one statement per table.
 */
export async function applyInRanges(
  trx: Trx,
  lo: number,
  hi: number,
  apply: (lo: number, hi: number) => Promise<Counts>,
  refused: (ord: number, reason: string) => Promise<void>,
): Promise<Required<Counts>> {
  const none = { inserted: 0, updated: 0, unchanged: 0 };
  if (hi <= lo) return none;
  return withSavepoint(
    trx,
    'staged_rows',
    async () => {
      const c = await apply(lo, hi);
      return { inserted: c.inserted, updated: c.updated, unchanged: c.unchanged ?? 0 };
    },
    async (err) => {
      if (hi - lo === 1) {
        await refused(lo, err instanceof Error ? err.message : String(err));
        return none;
      }
      const mid = lo + Math.floor((hi - lo) / 2);
      const a = await applyInRanges(trx, lo, mid, apply, refused);
      const b = await applyInRanges(trx, mid, hi, apply, refused);
      return {
        inserted: a.inserted + b.inserted,
        updated: a.updated + b.updated,
        unchanged: a.unchanged + b.unchanged,
      };
    },
  );
}
