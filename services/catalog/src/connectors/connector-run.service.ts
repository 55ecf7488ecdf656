import { mkdtemp, rm } from 'node:fs/promises';
import Decimal from 'decimal.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type PgClient, sql, type Transaction, withPgClient } from '@aplt/db';
import { refreshProductSearch } from '../search/search-index.repository';
import type { ConnectorName, FeedFormat } from './connector-registry';
import { defaultFormats, parsersByFormat } from './connector-registry';
import { describeFeedShape } from './feed-shape';
import { copyLine, CopySpool, CopyWriter, type Field } from './copy-writer';
import { countBytes, openSizedFeed } from './feed-source';
import type { PriceRow, PrintRow, ProductRow, StockRow } from './feed-rows';
import { type Counts, country, gtin, nz, productSku, variantSku } from './import.repository';
import type { Parsed } from './mappers/parsed';
import {
  applyStagedPositions,
  applyStagedPrices,
  applyStagedTechniques,
  applyStagedProducts,
  applyStagedStock,
  copyStatement,
  createPriceStage,
  createPrintStage,
  createProductStage,
  createStockStage,
  priceStage,
  printStage,
  productStage,
  resolveStagedPositions,
  resolveStagedPrices,
  resolveStagedStock,
  stagedPosition,
  stagedPositionRejects,
  stagedPriceRecord,
  stagedPriceRejects,
  stagedRow,
  stagedStockRejects,
  stockStage,
} from './staged-import.repository';
import { ProgressTicker, RunProgress } from './run-progress';
import { addRejects, finishRun, markRunning, supplierFeed, updateProgress } from './sync-run.repository';

export interface RunOptions {
  /**
   * Unused since every feed kind is COPY-staged and written set-based (issue #17); kept so the
   * callers' options (CATALOG_BATCH_SIZE) stay valid.
   */
  batchSize: number;
  /**
   * Products per chunk: a chunk is COPYed and written on the server while the next ones are
   * parsed and spooled to a temporary file (default 10,000).
   */
  productChunkRows?: number;
  defaultMarginPercent: string;
  /** The run's time limit: aborts the feed download and the transaction (checked at each flush). */
  signal?: AbortSignal | undefined;
  /** How often the run's progress is written to its row (default PROGRESS_INTERVAL_MS). */
  progressEveryMs?: number;
}

type Reject = { rowNumber: number; key?: string | undefined; reason: string; raw: unknown };
type Trx = Transaction<any>;

/**
 * Counts and rejects of one run. Rejects are written outside the run transaction (so the report
 * survives a failed run), a thousand at a time, together with the progress figures.
 */
class RunReport {
  readonly totals = { read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
  private pending: Reject[] = [];
  private lastRow = 0;

  constructor(
    private readonly db: Kysely<any>,
    private readonly runId: number,
    private readonly signal?: AbortSignal,
    readonly progress = new RunProgress(),
    /** Where the percentage stands once the whole feed is read (the rest is writing). */
    private readonly readShare = 95,
  ) {}

  /** A feed record was read (one record may yield several rows: print data). */
  read(rowNumber: number): void {
    if (rowNumber !== this.lastRow) {
      this.totals.read++;
      this.lastRow = rowNumber;
      this.progress.rowsRead = this.totals.read;
    }
  }

  /** The whole feed is read; what is left is writing what it gave. */
  feedRead(): void {
    this.progress.enter('writing', this.readShare);
  }

  reject(r: Reject): void {
    this.pending.push(r);
  }

  add(c: Counts): void {
    this.totals.inserted += c.inserted;
    this.totals.updated += c.updated;
    this.totals.unchanged += c.unchanged ?? 0;
  }

  get pendingRejects(): number {
    return this.pending.length;
  }

  async flush(): Promise<void> {
    this.signal?.throwIfAborted();
    const rejects = this.pending;
    this.pending = [];
    this.totals.rejected += rejects.length;
    await addRejects(this.db, this.runId, rejects);
    await updateProgress(this.db, this.runId, {
      rowsRead: this.totals.read,
      inserted: this.totals.inserted,
      updated: this.totals.updated,
      rejected: this.totals.rejected,
      metadata: { unchanged: this.totals.unchanged },
    });
  }
}

/**
 * Runs one connector inside ONE transaction, so a run that fails (unreadable feed, lost
 * connection) leaves the previous data as it was. Products and stock stream through COPY into a
 * staging table and are then written set-based, and so do prices and print data. Bad rows
 * never abort the run: they are reported in aplt_connector_rejects. After a products run the
 * search index is refreshed in the same transaction, so the run only succeeds (and commits) with
 * its products findable.
 */
export async function runConnector(
  db: Kysely<any>,
  runId: number,
  connector: ConnectorName,
  opts: RunOptions,
  log: (msg: string, extra?: object) => void = () => {},
): Promise<void> {
  if (!(await markRunning(db, runId))) return;
  // Reading the feed is most of a run; products and stock still write set-based afterwards.
  const readShare = connector.kind === 'products' ? 85 : connector.kind === 'stock' ? 60 : 95;
  const progress = new RunProgress();
  const report = new RunReport(db, runId, opts.signal, progress, readShare);
  const ticker = new ProgressTicker(db, runId, progress, opts.progressEveryMs).start();
  try {
    await ticker.now();
    const supplier = await supplierFeed(db, connector.supplier);
    if (!supplier) throw new Error(`Supplier ${connector.supplier} is not configured (aplt_suppliers)`);
    const location = supplier.settings?.feeds?.[connector.kind] as string | undefined;
    if (!location)
      throw new Error(`Supplier ${connector.supplier} has no feed for ${connector.kind} (settings.feeds)`);
    const format = (supplier.feed_format as FeedFormat | null) ?? defaultFormats[connector.supplier];
    const parsers = parsersByFormat[format] ?? parsersByFormat[defaultFormats[connector.supplier]];
    const margin = String(supplier.settings?.margin_percent ?? opts.defaultMarginPercent);
    const feed = await openSizedFeed(location, opts.signal);
    // Progress while reading: the feed's bytes taken by the reader, of its size when known.
    progress.enter('reading', 0, readShare, { unit: 'bytes', total: feed.size });
    let feedBytes = 0;
    const input = countBytes(feed.stream, (bytes) => {
      progress.done = bytes;
      feedBytes = bytes;
    });
    await ticker.now();
    const timing = { write_ms: 0, feed_ms: 0, search_refresh_ms: 0, search_indexed: 0 };
    try {
      await withPgClient(db, (client, conn) =>
        conn.transaction().execute(async (trx) => {
          // Batch statements over fresh rows get large cost estimates, and JIT compiling each of
          // them costs far more than running it: measured 10x on stock imports.
          await sql`SET LOCAL jit = off`.execute(trx);
          // The set-based steps sort and hash whole feeds: room for that in memory, not in temp files.
          await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
          const start = performance.now();
          const s = connector.supplier;
          if (connector.kind === 'products') {
            timing.feed_ms = await importProducts(
              trx,
              client,
              s,
              parsers.products(input),
              report,
              opts.productChunkRows ?? 10_000,
            );
          } else if (connector.kind === 'stock') {
            timing.feed_ms = await importStock(trx, client, s, parsers.stock(input), report);
          } else if (connector.kind === 'prices') {
            timing.feed_ms = await importPrices(trx, client, s, parsers.prices(input), report, margin);
          } else {
            timing.feed_ms = await importPrint(trx, client, s, parsers.printdata(input, s), report);
          }
          timing.write_ms = Math.round(performance.now() - start);
          // A feed with content but not one record is in a shape this connector does not read
          // (issue #16): fail, naming what it holds, instead of succeeding with 0 rows.
          if (report.totals.read === 0 && feedBytes > 0) {
            const shape = await openSizedFeed(location, opts.signal).then(async (again) => {
              try {
                return await describeFeedShape(again.stream, format);
              } finally {
                again.stream.destroy();
              }
            });
            throw new Error(
              `The ${connector.kind} feed (${feedBytes} bytes) yielded no records: ${shape}. ` +
                `Check the feed's shape or the supplier's feed_format (${format}).`,
            );
          }
          if (connector.kind === 'products') {
            progress.enter('indexing', 90);
            await ticker.now();
            const search = await refreshProductSearch(trx);
            timing.search_refresh_ms = search.ms;
            timing.search_indexed = search.indexed;
          }
          progress.enter('finishing', 97);
          await ticker.now();
          await report.flush();
          opts.signal?.throwIfAborted(); // past the limit: roll back rather than commit late
        }),
      );
    } finally {
      input.destroy();
      feed.stream.destroy();
    }
    if (connector.kind === 'products') {
      // Fresh statistics, so the stock and price runs that follow resolve SKUs by index lookups.
      await sql`ANALYZE aplt_products, aplt_product_variants, aplt_skus`.execute(db);
    }
    await ticker.stop();
    await updateProgress(db, runId, { metadata: timing });
    await finishRun(db, runId, { status: 'succeeded' });
    log('connector run succeeded', { connector: connector.name, runId, ...report.totals, ...timing });
  } catch (err) {
    // A stopped run reports why it was stopped, not the stream's generic "operation was aborted".
    const cause = opts.signal?.aborted ? opts.signal.reason : err;
    const message = cause instanceof Error ? cause.message : String(cause);
    await ticker.stop();
    await updateProgress(db, runId, { rowsRead: report.totals.read, inserted: 0, updated: 0 }).catch(
      () => {},
    );
    await finishRun(db, runId, { status: 'failed', error: message });
    log('connector run failed', { connector: connector.name, runId, error: message });
  }
}

/** How often (in staged rows) the progress figures are written while a feed streams in. */
const PROGRESS_EVERY = 10_000;

/**
 * Reads the feed: reports its rejects, hands every row `stage` accepts to `write` (its position
 * among the staged rows is its ord), calls `afterRow` after each record and writes the progress
 * figures every PROGRESS_EVERY rows. Returns how many rows were staged.
 */
async function stageRows<T>(
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Field[] | Reject,
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
      } else report.reject(fields);
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
async function stream<T>(
  client: PgClient,
  statement: string,
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Field[] | Reject,
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
async function streamInChunks<T>(
  client: PgClient,
  statement: string,
  rows: AsyncIterable<Parsed<T>>,
  report: RunReport,
  stage: (row: T, ord: number, rowNumber: number) => Field[] | Reject,
  chunkRows: number,
  apply: (lo: number, hi: number) => Promise<void>,
): Promise<{ count: number; readAt: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'aplt-import-'));
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

async function importProducts(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<ProductRow>>,
  report: RunReport,
  chunkRows: number,
): Promise<number> {
  const start = performance.now();
  await createProductStage(trx);
  // Our SKU of every staged product -> its feed row: a second record for it is reported, the first counts.
  const seen = new Map<string, number>();
  const { readAt } = await streamInChunks(
    client,
    copyStatement(productStage),
    rows,
    report,
    (r, ord, rowNumber) => {
      const sku = productSku(supplier, r.masterCode);
      const first = seen.get(sku);
      if (first !== undefined)
        return {
          rowNumber,
          key: r.masterCode,
          reason: `duplicate: row ${first} of the feed already gives product ${sku}`,
          raw: r,
        };
      seen.set(sku, rowNumber);
      return productFields(ord, rowNumber, sku, r);
    },
    chunkRows,
    async (lo, hi) =>
      report.add(
        await applyInRanges(
          trx,
          lo,
          hi,
          (a, b) => applyStagedProducts(trx, supplier, a, b),
          async (ord, reason) => report.reject(await refusedRow(trx, 'aplt_stage_products', ord, reason)),
        ),
      ),
  );
  seen.clear();
  return Math.round(readAt - start);
}

function productFields(ord: number, rowNumber: number, sku: string, r: ProductRow): Field[] {
  const variants = new Map<string, object>();
  for (const v of r.variants) {
    const vsku = variantSku(sku, v.colorCode);
    // One variant per colour: a repeated colour code would be the same variant SKU twice.
    if (!variants.has(vsku))
      variants.set(vsku, {
        sku: vsku,
        supplier_sku: v.supplierSku,
        supplier_variant_id: v.supplierVariantId,
        color_code: v.colorCode,
        color_name: v.colorName,
        color_group: v.colorGroup,
        pms_color: v.pmsColor,
        gtin: gtin(v.gtin) ?? undefined,
        plc_status: v.plcStatus,
      });
  }
  return [
    ord,
    rowNumber,
    sku,
    r.masterCode,
    r.names.nl,
    r.names.en,
    r.names.de,
    r.descriptions.nl,
    r.descriptions.en,
    r.descriptions.de,
    r.brand,
    r.material,
    r.dimensions,
    country(r.countryOfOrigin),
    r.categoryCode,
    r.printable,
    nz(r.numberOfPrintPositions),
    r.images[0],
    JSON.stringify(r.images),
    JSON.stringify([...variants.values()]),
  ];
}

async function importStock(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<StockRow>>,
  report: RunReport,
): Promise<number> {
  const start = performance.now();
  await createStockStage(trx);
  const staged = await stream(client, copyStatement(stockStage), rows, report, (r, ord, rowNumber) => [
    ord,
    rowNumber,
    r.supplierSku,
    r.quantity,
    r.firstArrivalDate,
    r.firstArrivalQty,
    r.nextArrivalDate,
    r.nextArrivalQty,
  ]);
  const stageMs = Math.round(performance.now() - start);
  await resolveStagedStock(trx, supplier);
  // Unknown SKUs and duplicates, found set-based, into the report a page at a time.
  for (let after = -1; ;) {
    const page = await stagedStockRejects(trx, after, 5000);
    if (page.length === 0) break;
    for (const r of page)
      report.reject({ rowNumber: r.row_number, key: r.key, reason: r.reason, raw: r.raw });
    after = page[page.length - 1]!.ord;
    await report.flush();
  }
  const counts = await applyInRanges(
    trx,
    0,
    staged,
    (lo, hi) => applyStagedStock(trx, lo, hi),
    async (ord, reason) => report.reject(await refusedRow(trx, 'aplt_stage_stock', ord, reason)),
  );
  report.add(counts);
  return stageMs;
}

/**
 * Prices: every scale of the feed is COPYed to the stage (purchase and marked-up retail computed
 * here, as before), resolved set-based (unknown SKUs, invalid values and repeated records go to the
 * report), then written by one statement set; a range the database refuses is halved until the
 * refused records stand alone.
 */
async function importPrices(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<PriceRow>>,
  report: RunReport,
  marginPercent: string,
): Promise<number> {
  const start = performance.now();
  const factor = new Decimal(1).plus(new Decimal(marginPercent).div(100));
  await createPriceStage(trx);
  let records = 0;
  const copy = CopyWriter.open(client, copyStatement(priceStage));
  try {
    await stageRows(
      rows,
      report,
      (r, ord, rowNumber) => {
        const currency = r.currency.toUpperCase();
        const lines: Field[][] = r.scales.map((sc) => {
          const price = new Decimal(sc.price);
          return [
            ord,
            rowNumber,
            r.supplierSku,
            sc.minQuantity,
            price.toFixed(4),
            price.times(factor).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
            currency,
            nz(r.validUntil),
          ];
        });
        return lines.length > 0
          ? lines.flat()
          : { rowNumber, key: r.supplierSku, reason: 'no price: the record lists no scale', raw: r };
      },
      async (fields) => {
        // One staged line per scale (8 fields each).
        for (let i = 0; i < fields.length; i += 8) await copy.row(fields.slice(i, i + 8));
        records++;
      },
    );
    await copy.end();
  } catch (err) {
    await copy.abort(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  const stageMs = Math.round(performance.now() - start);
  await resolveStagedPrices(trx, supplier);
  for (let after = -1; ;) {
    const page = await stagedPriceRejects(trx, after, 5000);
    if (page.length === 0) break;
    for (const r of page)
      report.reject({ rowNumber: r.row_number, key: r.key, reason: r.reason, raw: r.raw });
    after = page[page.length - 1]!.ord;
    await report.flush();
  }
  report.add(
    await applyInRanges(
      trx,
      0,
      records,
      (lo, hi) => applyStagedPrices(trx, lo, hi),
      async (ord, reason) => {
        const staged = await stagedPriceRecord(trx, ord);
        report.reject({
          rowNumber: staged?.row_number ?? 0,
          key: staged?.key,
          reason: `refused by the database: ${reason}`,
          raw: staged?.raw ?? null,
        });
      },
    ),
  );
  return stageMs;
}

/**
 * Print data: every technique and position record is COPYed to the stage as JSON, then written
 * set-based: techniques (with their scales and setup cost) in one statement per table, positions
 * resolved at once (unknown products, invalid sizes and unknown techniques to the report) and
 * written with their technique links; a range of positions the database refuses is halved until
 * the refused position stands alone.
 */
async function importPrint(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<PrintRow>>,
  report: RunReport,
): Promise<number> {
  const start = performance.now();
  await createPrintStage(trx);
  await stream(client, copyStatement(printStage), rows, report, (r, ord, rowNumber) =>
    r.type === 'technique'
      ? [ord, rowNumber, 't', r.row.code, JSON.stringify(r.row)]
      : [ord, rowNumber, 'p', r.row.masterCode, JSON.stringify(r.row)],
  );
  const stageMs = Math.round(performance.now() - start);
  // Techniques first: positions refer to them. A refused technique fails the run (they are few
  // and every position depends on them).
  report.add(await applyStagedTechniques(trx, supplier));
  await resolveStagedPositions(trx, supplier);
  for (let after = -1; ;) {
    const page = await stagedPositionRejects(trx, after, 5000);
    if (page.length === 0) break;
    for (const r of page)
      report.reject({ rowNumber: r.row_number, key: r.key, reason: r.reason, raw: r.raw });
    after = page[page.length - 1]!.ord;
    await report.flush();
  }
  const positions = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_stage_positions`.execute(
    trx,
  );
  report.add(
    await applyInRanges(
      trx,
      0,
      positions.rows[0]?.n ?? 0,
      (lo, hi) => applyStagedPositions(trx, lo, hi),
      async (gid, reason) => {
        const staged = await stagedPosition(trx, gid);
        report.reject({
          rowNumber: staged?.row_number ?? 0,
          key: staged?.key,
          reason: `refused by the database: ${reason}`,
          raw: staged?.raw ?? null,
        });
      },
    ),
  );
  return stageMs;
}

async function refusedRow(
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
async function applyInRanges(
  trx: Trx,
  lo: number,
  hi: number,
  apply: (lo: number, hi: number) => Promise<Counts>,
  refused: (ord: number, reason: string) => Promise<void>,
): Promise<Required<Counts>> {
  if (hi <= lo) return { inserted: 0, updated: 0, unchanged: 0 };
  await sql`SAVEPOINT staged_rows`.execute(trx);
  try {
    const c = await apply(lo, hi);
    await sql`RELEASE SAVEPOINT staged_rows`.execute(trx);
    return { inserted: c.inserted, updated: c.updated, unchanged: c.unchanged ?? 0 };
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT staged_rows`.execute(trx);
    await sql`RELEASE SAVEPOINT staged_rows`.execute(trx);
    if (hi - lo === 1) {
      await refused(lo, err instanceof Error ? err.message : String(err));
      return { inserted: 0, updated: 0, unchanged: 0 };
    }
  }
  const mid = lo + Math.floor((hi - lo) / 2);
  const a = await applyInRanges(trx, lo, mid, apply, refused);
  const b = await applyInRanges(trx, mid, hi, apply, refused);
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
  };
}
