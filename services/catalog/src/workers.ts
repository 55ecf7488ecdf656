import type { ApltDatabase, CommerceDatabase, TenantDatabases, TenantRegistry } from '@aplt/db';
import { type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { Config } from './config';
import { findConnector } from './connectors/connector-registry';
import { runConnector } from './connectors/connector-run.service';
import { ProgressTicker, RunProgress } from './connectors/run-progress';
import {
  failUnfinishedRun,
  finishRun,
  getRun,
  markRunning,
  updateProgress,
} from './connectors/sync-run.repository';
import { syncCommerceCatalog } from './sync/commerce-sync.service';
import { recordTenantUpdate } from './sync/tenant-registry.repository';
import { copyCatalog, countCatalogRows } from './sync/tenant-update.service';

export interface WorkerDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  connection: Redis;
  config: Config;
  /** Tells every catalog replica to drop a tenant's cached store pages (store-cache-events.ts). */
  storeChanged?: (tenantId: string) => Promise<void>;
  log?: (msg: string, extra?: object) => void;
}

/**
 * The connector, commerce-sync and tenant-update workers (one handler per job name). Each queue
 * has its time limit (CATALOG_*_TIME_LIMIT_SECONDS): past it the job's signal aborts, the work
 * stops at its next step and rolls back its open transaction, and the run row is failed with the
 * reason, which frees the connector (one queued-or-running row per connector) for a new run.
 */
export function startCatalogWorkers(deps: WorkerDeps): WorkerHandle[] {
  const opts = { connection: deps.connection, prefix: deps.config.REDIS_PREFIX };
  const log = deps.log ?? (() => {});
  const limitMs = (seconds: number) => seconds * 1000;
  /** The reason a run stopped: the time limit's message when its signal aborted, else the error's. */
  const failureOf = (err: unknown, signal: AbortSignal) => {
    const cause: unknown = signal.aborted ? signal.reason : err;
    return cause instanceof Error ? cause.message : String(cause);
  };
  const logAbort = (signal: AbortSignal, extra: object) => {
    const report = () => log('job stopped', { ...extra, reason: failureOf(undefined, signal) });
    if (signal.aborted) report();
    else signal.addEventListener('abort', report, { once: true });
  };
  const tenant = async (id: string) => {
    const t = await deps.registry.get(id);
    if (!t) throw new Error(`Unknown tenant ${id}`);
    return t;
  };
  const changed = deps.storeChanged ?? (async () => {});
  const isFinal = (job: { attemptsMade: number; opts: { attempts?: number } }) =>
    job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

  const connectors = startWorker(
    'connectors',
    {
      'connector.run': async (p, job, signal) => {
        logAbort(signal, { queue: 'connectors', connector: p.connector, runId: p.runId });
        const db = deps.databases.aplt<ApltDatabase>(await tenant(p.tenantId));
        try {
          const connector = findConnector(p.connector);
          if (!connector) throw new Error(`Unknown connector ${p.connector}`);
          await runConnector(
            db,
            p.runId,
            connector,
            {
              batchSize: deps.config.CATALOG_BATCH_SIZE,
              defaultMarginPercent: deps.config.CATALOG_DEFAULT_MARGIN_PERCENT,
              signal,
            },
            log,
          );
          await changed(p.tenantId);
          // runConnector records failures on the run row; one stopped by the limit fails its job too.
          if (signal.aborted && (await getRun(db, p.runId))?.status === 'failed') throw signal.reason;
        } catch (err) {
          // A failure the run could not record: on the last attempt the run fails (best effort: its
          // database may be the failure), or it would block its connector as queued forever.
          if (isFinal(job)) await failUnfinishedRun(db, p.runId, failureOf(err, signal)).catch(() => {});
          throw err;
        }
      },
    },
    { ...opts, concurrency: 4, timeLimitMs: limitMs(deps.config.CATALOG_CONNECTOR_TIME_LIMIT_SECONDS) },
  );

  const commerce = startWorker(
    'commerce-sync',
    {
      'commerce-sync.run': async (p, job, signal) => {
        logAbort(signal, { queue: 'commerce-sync', tenantId: p.tenantId, runId: p.runId });
        const t = await tenant(p.tenantId);
        const aplt = deps.databases.aplt<ApltDatabase>(t);
        if (!(await markRunning(aplt, p.runId))) return;
        // Products handled of the sellable total map onto 0-95 %; the rest is removing what is
        // no longer sellable and the commit.
        const progress = new RunProgress();
        const ticker = new ProgressTicker(aplt, p.runId, progress).start();
        try {
          progress.enter('writing', 0, 95, { unit: 'products', total: null });
          await ticker.now();
          // The sync calls back after each chunk, inside its transaction: throwing there rolls it back.
          const result = await syncCommerceCatalog(aplt, deps.databases.commerce<CommerceDatabase>(t), {
            full: p.full === true,
            onProgress: async (done, total) => {
              signal.throwIfAborted();
              progress.total = total;
              progress.done = done;
              progress.rowsRead = done;
              if (done >= total) progress.enter('finishing', 95);
            },
          });
          await ticker.stop();
          await updateProgress(aplt, p.runId, {
            rowsRead: result.products + result.unchanged,
            inserted: result.inserted,
            updated: result.products - result.inserted,
            metadata: { result },
          });
          await finishRun(aplt, p.runId, { status: 'succeeded' });
          await changed(p.tenantId);
        } catch (err) {
          await ticker.stop();
          await finishRun(aplt, p.runId, {
            status: isFinal(job) || signal.aborted ? 'failed' : 'queued',
            error: failureOf(err, signal),
          });
          throw err;
        }
      },
    },
    { ...opts, timeLimitMs: limitMs(deps.config.CATALOG_COMMERCE_SYNC_TIME_LIMIT_SECONDS) },
  );

  const tenantUpdate = startWorker(
    'tenant-update',
    {
      'tenant-update.run': async (p, job, signal) => {
        logAbort(signal, { queue: 'tenant-update', runId: p.runId });
        const source = await tenant(p.sourceTenantId);
        const master = deps.databases.aplt<ApltDatabase>(source);
        if (!(await markRunning(master, p.runId))) return;
        const done: Record<string, Record<string, number>> = {};
        // Catalog rows copied of (rows in the master x targets) map onto 0-99 %.
        const progress = new RunProgress();
        const ticker = new ProgressTicker(master, p.runId, progress).start();
        try {
          await ticker.now();
          const perTarget = await countCatalogRows(master);
          progress.enter('writing', 0, 99, { unit: 'rows', total: perTarget * p.targetTenantIds.length });
          await ticker.now();
          for (const [i, id] of p.targetTenantIds.entries()) {
            signal.throwIfAborted();
            const target = await tenant(id);
            // Rows of the tables finished before the current one, and of the current one so far.
            let finished = 0;
            let current: { table: string; rows: number } | null = null;
            // Called after each chunk inside the target's transaction: throwing rolls that tenant back
            // (tenants finished before stay updated, each is its own transaction).
            done[id] = await copyCatalog(
              master,
              deps.databases.aplt<ApltDatabase>(target),
              async (table, rows) => {
                signal.throwIfAborted();
                if (current && current.table !== table) finished += current.rows;
                current = { table, rows };
                progress.done = i * perTarget + finished + rows;
              },
            );
            progress.done = (i + 1) * perTarget;
            await recordTenantUpdate(master, target);
            await changed(id);
            await updateProgress(master, p.runId, {
              rowsRead: i + 1,
              inserted: Object.values(done[id] ?? {}).reduce((a, b) => a + b, 0),
              metadata: { done },
            });
          }
          await ticker.stop();
          await finishRun(master, p.runId, { status: 'succeeded' });
        } catch (err) {
          await ticker.stop();
          await finishRun(master, p.runId, {
            status: isFinal(job) || signal.aborted ? 'failed' : 'queued',
            error: failureOf(err, signal),
          });
          throw err;
        }
      },
    },
    { ...opts, timeLimitMs: limitMs(deps.config.CATALOG_TENANT_UPDATE_TIME_LIMIT_SECONDS) },
  );
  return [connectors, commerce, tenantUpdate];
}
