import { type ApltDatabase, type Kysely, withPgClient } from '@aplt/db';
import { refreshProductSearch } from '../search/search-index.repository';
import type { ConnectorName, FeedFormat } from './connector-registry';
import { defaultFormats, parsersByFormat } from './connector-registry';
import { describeFeedShape } from './feed-shape';
import { countBytes, openSizedFeed } from './feed-source';
import { importPrices } from './prices-import';
import { importPrint } from './print-import';
import { importProducts } from './products-import';
import { ProgressTicker, RunProgress } from './run-progress';
import { RunReport } from './run-report';
import { importStock } from './stock-import';
import {
  analyzeImportLookups,
  finishRun,
  markRunning,
  supplierFeed,
  tuneImportTransaction,
  updateProgress,
} from './sync-run.repository';

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

/**
 * Runs one connector inside ONE transaction, so a run that fails (unreadable feed, lost
 * connection) leaves the previous data as it was. Products and stock stream through COPY into a
 * staging table and are then written set-based, and so do prices and print data. Bad rows
 * never abort the run: they are reported in aplt_connector_rejects. After a products run the
 * search index is refreshed in the same transaction, so the run only succeeds (and commits) with
 * its products findable.
 */
export async function runConnector(
  db: Kysely<ApltDatabase>,
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
    const location = supplier.feeds[connector.kind];
    if (!location)
      throw new Error(`Supplier ${connector.supplier} has no feed for ${connector.kind} (settings.feeds)`);
    const format = (supplier.feed_format as FeedFormat | null) ?? defaultFormats[connector.supplier];
    const parsers = parsersByFormat[format] ?? parsersByFormat[defaultFormats[connector.supplier]];
    const margin = String(supplier.margin_percent ?? opts.defaultMarginPercent);
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
      // conn is a client of db's own pool, so it has db's tables.
      await withPgClient(db, (client, conn: Kysely<ApltDatabase>) =>
        conn.transaction().execute(async (trx) => {
          await tuneImportTransaction(trx);
          const start = performance.now();
          const s = connector.supplier;
          if (connector.kind === 'products') {
            const products = await importProducts(
              trx,
              client,
              s,
              parsers.products(input),
              report,
              opts.productChunkRows ?? 10_000,
            );
            timing.feed_ms = products.feedMs;
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
            // Every product the feed wrote, and any other changed since its last indexing (a price
            // run moves updated_at), in one statement, as every product writer does.
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
      await analyzeImportLookups(db);
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
