/**
 * One worker replica for the queue tests (issue #18): a process that runs the real connector,
 * callback and mail workers of the catalog, logo-modal and auth services against the Redis and
 * databases of its environment, as their processes do in the fleet, and reports every job event
 * on stdout as one JSON line: {event, queue, id, pid, attempts, reason?}. The tests start two of
 * these (two replicas), count the events and the side effects (DB rows, SMTP, callback server).
 * SIGTERM closes the workers (the running jobs finish) and exits.
 *
 * The worker functions come from the services' sources by path: they are not part of the
 * services' package exports, and this harness is the only other place that starts them.
 */
import { tenantContextFromEnv } from '@aplt/http';
import { createMailer } from '@aplt/mail';
import { createRedis, type WorkerHandle } from '@aplt/queue';
import { startMailWorker } from '@aplt/service-auth/mail-worker';
import { loadConfig as loadCatalogConfig } from '@aplt/service-catalog/config';
import { startCatalogWorkers } from '@aplt/service-catalog/workers';
import { startCallbackWorker } from '@aplt/service-logo-modal/callback-worker';
import { loadConfig as loadModalConfig } from '@aplt/service-logo-modal/config';

// One tenant context (pools) per service, as their own processes have in the fleet.
const catalogCtx = tenantContextFromEnv({ poolMax: 12 }); // as services/catalog/src/worker.ts
const modalCtx = tenantContextFromEnv();
const catalogConfig = loadCatalogConfig();
const modalConfig = loadModalConfig();
const prefix = catalogConfig.REDIS_PREFIX;
const connection = createRedis(catalogConfig.REDIS_URL, { forWorker: true });
const smtp = createMailer({
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: Number(process.env['SMTP_PORT']),
  MAIL_FROM_NAME: 'APLT test',
  MAIL_FROM_ADDRESS: 'no-reply@aplt.localhost',
  SMTP_TLS_REJECT_UNAUTHORIZED: false,
  SMTP_REQUIRE_TLS: false,
});

const say = (line: object) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...line })}\n`);

const handles: WorkerHandle[] = [
  ...startCatalogWorkers({
    registry: catalogCtx.registry,
    databases: catalogCtx.databases,
    connection,
    config: catalogConfig,
  }),
  startCallbackWorker({ ...modalCtx, connection, prefix }, modalConfig, { warn: () => {} }),
  startMailWorker(smtp, { connection, prefix, senderDomain: 'aplt.localhost' }),
];
for (const { worker } of handles) {
  const queue = worker.name;
  worker.on('active', (job) => say({ event: 'active', queue, id: job.id, attempts: job.attemptsMade }));
  worker.on('completed', (job) => say({ event: 'completed', queue, id: job.id, attempts: job.attemptsMade }));
  worker.on('failed', (job, err) =>
    say({ event: 'failed', queue, id: job?.id, attempts: job?.attemptsMade, reason: err.message }),
  );
}
await Promise.all(handles.map(({ worker }) => worker.waitUntilReady()));
say({ event: 'ready', queues: handles.map(({ worker }) => worker.name) });

let stopping = false;
process.once('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void Promise.allSettled(handles.map((h) => h.close())).then(async () => {
    connection.disconnect();
    smtp.close();
    await Promise.allSettled([catalogCtx.close(), modalCtx.close()]);
    process.exit(0);
  });
});
