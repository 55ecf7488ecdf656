import { type Kysely, sql, type Transaction } from '@aplt/db';
import type { ConnectorName, FeedFormat } from './connector-registry';
import { defaultFormats, parsersByFormat } from './connector-registry';
import { openFeed } from './feed-source';
import type { PositionRow, PrintRow, TechniqueRow } from './feed-rows';
import {
  type Counts,
  type UnknownKey,
  upsertPositions,
  upsertPrices,
  upsertProducts,
  upsertStock,
  upsertTechniques,
} from './import.repository';
import type { Parsed } from './mappers/parsed';
import { addRejects, finishRun, markRunning, supplierFeed, updateProgress } from './sync-run.repository';

export interface RunOptions {
  batchSize: number;
  defaultMarginPercent: string;
  /** The run's time limit: aborts the feed download and the transaction (checked between batches). */
  signal?: AbortSignal | undefined;
}

type Reject = { rowNumber: number; key?: string | undefined; reason: string; raw: unknown };
type BatchResult = Counts & { unknown?: UnknownKey[] };

/**
 * Runs one connector: streams the feed, maps rows, upserts in batches inside ONE transaction, so
 * a run that fails (unreadable feed, lost connection) leaves the previous data as it was. Bad
 * rows never abort the run: they are reported in aplt_connector_rejects (written outside the
 * transaction so the report survives). A batch that the database refuses is retried row by row
 * under savepoints, so one bad row costs only itself.
 */
export async function runConnector(
  db: Kysely<any>,
  runId: number,
  connector: ConnectorName,
  opts: RunOptions,
  log: (msg: string, extra?: object) => void = () => {},
): Promise<void> {
  if (!(await markRunning(db, runId))) return;
  const totals = { read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
  try {
    const supplier = await supplierFeed(db, connector.supplier);
    if (!supplier) throw new Error(`Supplier ${connector.supplier} is not configured (aplt_suppliers)`);
    const location = supplier.settings?.feeds?.[connector.kind] as string | undefined;
    if (!location)
      throw new Error(`Supplier ${connector.supplier} has no feed for ${connector.kind} (settings.feeds)`);
    const format = (supplier.feed_format as FeedFormat | null) ?? defaultFormats[connector.supplier];
    const parsers = parsersByFormat[format] ?? parsersByFormat[defaultFormats[connector.supplier]];
    const margin = String(supplier.settings?.margin_percent ?? opts.defaultMarginPercent);
    const input = await openFeed(location, opts.signal);
    await db.transaction().execute(async (trx) => {
      // Batch statements over fresh rows get large cost estimates, and JIT compiling each of them
      // (inlining, optimisation) costs far more than running it: measured 10x on stock imports.
      await sql`SET LOCAL jit = off`.execute(trx);
      const rows: AsyncIterable<Parsed<any>> =
        connector.kind === 'products'
          ? parsers.products(input)
          : connector.kind === 'stock'
            ? parsers.stock(input)
            : connector.kind === 'prices'
              ? parsers.prices(input)
              : parsers.printdata(input, connector.supplier);
      const write = writerFor(connector, margin);
      let batch: Array<{ rowNumber: number; row: any }> = [];
      let pendingRejects: Reject[] = [];
      const flush = async () => {
        opts.signal?.throwIfAborted();
        if (batch.length > 0) {
          const result = await writeBatch(trx, batch, write);
          totals.inserted += result.inserted;
          totals.updated += result.updated;
          totals.unchanged += result.unchanged;
          pendingRejects.push(...result.rejects);
          batch = [];
        }
        totals.rejected += pendingRejects.length;
        await addRejects(db, runId, pendingRejects);
        pendingRejects = [];
        await updateProgress(db, runId, {
          rowsRead: totals.read,
          inserted: totals.inserted,
          updated: totals.updated,
          rejected: totals.rejected,
          metadata: { unchanged: totals.unchanged },
        });
      };
      let lastRow = 0;
      for await (const parsed of rows) {
        if (parsed.rowNumber !== lastRow) {
          totals.read++;
          lastRow = parsed.rowNumber;
        }
        if ('reject' in parsed) pendingRejects.push({ rowNumber: parsed.rowNumber, ...parsed.reject });
        else batch.push(parsed);
        if (batch.length >= opts.batchSize) await flush();
      }
      await flush();
      opts.signal?.throwIfAborted(); // past the limit: roll back rather than commit late
    });
    if (connector.kind === 'products') {
      // Fresh statistics, so the stock and price runs that follow resolve SKUs by index lookups.
      await sql`ANALYZE aplt_products, aplt_product_variants, aplt_skus`.execute(db);
    }
    await finishRun(db, runId, { status: 'succeeded' });
    log('connector run succeeded', { connector: connector.name, runId, ...totals });
  } catch (err) {
    // A stopped run reports why it was stopped, not the stream's generic "operation was aborted".
    const cause = opts.signal?.aborted ? opts.signal.reason : err;
    const message = cause instanceof Error ? cause.message : String(cause);
    await updateProgress(db, runId, { rowsRead: totals.read, inserted: 0, updated: 0 }).catch(() => {});
    await finishRun(db, runId, { status: 'failed', error: message });
    log('connector run failed', { connector: connector.name, runId, error: message });
  }
}

type Writer = (trx: Transaction<any>, rows: any[]) => Promise<BatchResult>;

function writerFor(connector: ConnectorName, margin: string): Writer {
  const s = connector.supplier;
  switch (connector.kind) {
    case 'products':
      return (trx, rows) => upsertProducts(trx, s, rows);
    case 'stock':
      return (trx, rows) => upsertStock(trx, s, rows);
    case 'prices':
      return (trx, rows) => upsertPrices(trx, s, rows, margin);
    case 'printdata':
      return (trx, rows: PrintRow[]) => writePrint(trx, s, rows);
  }
}

/** Techniques first (positions refer to them); positions of one product and code are merged. */
async function writePrint(trx: Transaction<any>, supplier: string, rows: PrintRow[]): Promise<BatchResult> {
  const techniques = new Map<string, TechniqueRow>();
  const positions = new Map<string, { row: PositionRow; indexes: number[] }>();
  rows.forEach((r, i) => {
    if (r.type === 'technique') techniques.set(r.row.code, r.row);
    else {
      const key = `${r.row.masterCode}\u0000${r.row.positionCode}`;
      const found = positions.get(key);
      if (found) {
        found.row.techniques.push(
          ...r.row.techniques.filter((t) => !found.row.techniques.some((x) => x.code === t.code)),
        );
        found.indexes.push(i);
      } else positions.set(key, { row: { ...r.row, techniques: [...r.row.techniques] }, indexes: [i] });
    }
  });
  const total: BatchResult = { inserted: 0, updated: 0, unknown: [] };
  if (techniques.size > 0) {
    const c = await upsertTechniques(trx, supplier, [...techniques.values()]);
    total.inserted += c.inserted;
    total.updated += c.updated;
  }
  if (positions.size > 0) {
    const list = [...positions.values()];
    const c = await upsertPositions(
      trx,
      supplier,
      list.map((p) => p.row),
    );
    total.inserted += c.inserted;
    total.updated += c.updated;
    for (const u of c.unknown) {
      const first = list[u.index]?.indexes[0];
      if (first !== undefined) total.unknown?.push({ index: first, reason: u.reason });
    }
  }
  return total;
}

async function writeBatch(
  trx: Transaction<any>,
  batch: Array<{ rowNumber: number; row: any }>,
  write: Writer,
): Promise<Required<Counts> & { rejects: Reject[] }> {
  const toRejects = (r: BatchResult, items: typeof batch): Reject[] =>
    (r.unknown ?? []).map((u) => {
      const item = items[u.index] as (typeof batch)[number];
      return { rowNumber: item.rowNumber, key: keyOf(item.row), reason: u.reason, raw: item.row };
    });
  await sql`SAVEPOINT connector_batch`.execute(trx);
  try {
    const r = await write(
      trx,
      batch.map((b) => b.row),
    );
    await sql`RELEASE SAVEPOINT connector_batch`.execute(trx);
    return {
      inserted: r.inserted,
      updated: r.updated,
      unchanged: r.unchanged ?? 0,
      rejects: toRejects(r, batch),
    };
  } catch {
    await sql`ROLLBACK TO SAVEPOINT connector_batch`.execute(trx);
  }
  // The database refused the batch: find the culprit rows one by one.
  const out = { inserted: 0, updated: 0, unchanged: 0, rejects: [] as Reject[] };
  for (const item of batch) {
    await sql`SAVEPOINT connector_row`.execute(trx);
    try {
      const r = await write(trx, [item.row]);
      await sql`RELEASE SAVEPOINT connector_row`.execute(trx);
      out.inserted += r.inserted;
      out.updated += r.updated;
      out.unchanged += r.unchanged ?? 0;
      out.rejects.push(...toRejects(r, [item]));
    } catch (err) {
      await sql`ROLLBACK TO SAVEPOINT connector_row`.execute(trx);
      const reason = err instanceof Error ? err.message : String(err);
      out.rejects.push({
        rowNumber: item.rowNumber,
        key: keyOf(item.row),
        reason: `refused by the database: ${reason}`,
        raw: item.row,
      });
    }
  }
  return out;
}

function keyOf(row: any): string | undefined {
  return row?.supplierSku ?? row?.masterCode ?? row?.row?.masterCode ?? row?.row?.code;
}
