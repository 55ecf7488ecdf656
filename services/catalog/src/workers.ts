import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { Config } from './config';
import { findConnector } from './connectors/connector-registry';
import { runConnector } from './connectors/connector-run.service';
import { finishRun, markRunning, updateProgress } from './connectors/sync-run.repository';
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

/** The connector, commerce-sync and tenant-update workers (one handler per job name). */
export function startCatalogWorkers(deps: WorkerDeps): WorkerHandle[] {
  const opts = { connection: deps.connection, prefix: deps.config.REDIS_PREFIX };
  const log = deps.log ?? (() => {});
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
      'connector.run': async (p) => {
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
          },
          log,
        );
      },
    },
    { ...opts, concurrency: 4 },
  );

  const commerce = startWorker(
    'commerce-sync',
    {
      'commerce-sync.run': async (p, job) => {
        const t = await tenant(p.tenantId);
        const aplt = deps.databases.aplt(t);
        if (!(await markRunning(aplt, p.runId))) return;
        try {
          const result = await syncCommerceCatalog(aplt, deps.databases.commerce(t), (done, total) =>
            updateProgress(aplt, p.runId, { rowsRead: done, progress: total ? (100 * done) / total : 100 }),
          );
          await updateProgress(aplt, p.runId, {
            rowsRead: result.products,
            inserted: result.products,
            metadata: { result },
          });
          await finishRun(aplt, p.runId, { status: 'succeeded' });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          await finishRun(aplt, p.runId, { status: isFinal(job) ? 'failed' : 'queued', error: message });
          throw err;
        }
      },
    },
    opts,
  );

  const tenantUpdate = startWorker(
    'tenant-update',
    {
      'tenant-update.run': async (p, job) => {
        const source = await tenant(p.sourceTenantId);
        const master = deps.databases.aplt(source);
        if (!(await markRunning(master, p.runId))) return;
        const done: Record<string, Record<string, number>> = {};
        try {
          for (const [i, id] of p.targetTenantIds.entries()) {
            const target = await tenant(id);
            done[id] = await copyCatalog(master, deps.databases.aplt(target), async () => {});
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
          const message = err instanceof Error ? err.message : String(err);
          await finishRun(master, p.runId, { status: isFinal(job) ? 'failed' : 'queued', error: message });
          throw err;
        }
      },
    },
    opts,
  );
  return [connectors, commerce, tenantUpdate];
}
