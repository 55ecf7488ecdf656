import { createRedis, requireDurableRedis } from '@aplt/queue';
import { collectWhenIdleFromEnv, stopWithSupervisor, tenantContextFromEnv } from '@aplt/http';
import { loadConfig } from './config';
import { removeOrphanedSpoolDirs } from './connectors/spool-dirs';
import { storeChangedPublisher } from './store/store-cache-events';
import { startCatalogWorkers } from './workers';

/**
 * The catalog's queue workers as their own process (connectors, commerce sync, tenant update),
 * so a long import never competes with the store routes for the event loop. Stops on
 * SIGINT/SIGTERM after the running jobs' current step.
 */
const config = loadConfig();
// Queued jobs must survive a Redis restart and never be evicted: refuse (production) or warn.
await requireDurableRedis(config.REDIS_URL, 'catalog-worker');
// Each connector run holds one connection for its transaction and needs a second one for its
// progress and rejects (written outside it): 4 runs of one tenant side by side, plus a commerce
// sync and a tenant update, must never wait on each other for a connection (the pool's 3 s
// acquire limit would fail the runs).
const ctx = tenantContextFromEnv({ poolMax: 12 });
// A worker killed in the middle of an import left its feed spool behind (tens of MB a chunk).
const orphaned = await removeOrphanedSpoolDirs();
if (orphaned.length > 0)
  console.log(
    JSON.stringify({ service: 'catalog-worker', msg: 'removed spools of stopped workers', dirs: orphaned }),
  );
const connection = createRedis(config.REDIS_URL, { forWorker: true });
const workers = startCatalogWorkers({
  registry: ctx.registry,
  databases: ctx.databases,
  connection,
  config,
  storeChanged: storeChangedPublisher(connection, config.REDIS_PREFIX),
  log: (msg, extra) => console.log(JSON.stringify({ service: 'catalog-worker', msg, ...extra })),
});

// Between imports the worker gives their memory back (see collectWhenIdle).
const stopCollector = collectWhenIdleFromEnv();
let stopping = false;
const stop = async () => {
  if (stopping) process.exit(1);
  stopping = true;
  stopCollector();
  await Promise.allSettled(workers.map((w) => w.close()));
  connection.disconnect();
  await ctx.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
stopWithSupervisor(() => void stop());
// Logged after the handlers are in place: a SIGTERM sent on seeing this line must not meet
// Node's default action (exit without closing the workers).
console.log(
  JSON.stringify({
    service: 'catalog-worker',
    msg: 'workers started',
    queues: ['connectors', 'commerce-sync', 'tenant-update'],
  }),
);
