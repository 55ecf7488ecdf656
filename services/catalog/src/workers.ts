import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { Config } from './config';
import { findConnector } from './connectors/connector-registry';
import { runConnector } from './connectors/connector-run.service';
import { finishRun, getRun, markRunning, updateProgress } from './connectors/sync-run.repository';
import { syncCommerceCatalog } from './sync/commerce-sync.service';
import { recordTenantUpdate } from './sync/tenant-registry.repository';
import { copyCatalog } from './sync/tenant-update.service';

export interface WorkerDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  connection: Redis;
  config: Config;
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
  const isFinal = (job: { attemptsMade: number; opts: { attempts?: number } }) =>
    job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

  const connectors = startWorker(
    'connectors',
    {
      'connector.run': async (p, _job, signal) => {
        logAbort(signal, { queue: 'connectors', connector: p.connector, runId: p.runId });
        const connector = findConnector(p.connector);
        if (!connector) throw new Error(`Unknown connector ${p.connector}`);
        const db = deps.databases.aplt(await tenant(p.tenantId));
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
        // runConnector records failures on the run row; one stopped by the limit fails its job too.
        if (signal.aborted && (await getRun(db, p.runId))?.status === 'failed') throw signal.reason;
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
        const aplt = deps.databases.aplt(t);
        if (!(await markRunning(aplt, p.runId))) return;
        try {
          // The sync calls back after each chunk, inside its transaction: throwing there rolls it back.
          const result = await syncCommerceCatalog(aplt, deps.databases.commerce(t), {
            full: p.full === true,
            onProgress: (done, total) => {
              signal.throwIfAborted();
              return updateProgress(aplt, p.runId, {
                rowsRead: done,
                progress: total ? (100 * done) / total : 100,
              });
            },
          });
          await updateProgress(aplt, p.runId, {
            rowsRead: result.products + result.unchanged,
            inserted: result.inserted,
            updated: result.products - result.inserted,
            metadata: { result },
          });
          await finishRun(aplt, p.runId, { status: 'succeeded' });
        } catch (err) {
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
        const master = deps.databases.aplt(source);
        if (!(await markRunning(master, p.runId))) return;
        const done: Record<string, Record<string, number>> = {};
        try {
          for (const [i, id] of p.targetTenantIds.entries()) {
            signal.throwIfAborted();
            const target = await tenant(id);
            // Called after each chunk inside the target's transaction: throwing rolls that tenant back
            // (tenants finished before stay updated, each is its own transaction).
            done[id] = await copyCatalog(master, deps.databases.aplt(target), async () =>
              signal.throwIfAborted(),
            );
            await recordTenantUpdate(master, target);
            await updateProgress(master, p.runId, {
              rowsRead: i + 1,
              inserted: Object.values(done[id] ?? {}).reduce((a, b) => a + b, 0),
              progress: (100 * (i + 1)) / p.targetTenantIds.length,
              metadata: { done },
            });
          }
          await finishRun(master, p.runId, { status: 'succeeded' });
        } catch (err) {
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
