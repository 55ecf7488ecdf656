import { env, loadEnv } from '@aplt/config';
import type { App } from './create-app';
import { collectWhenIdleFromEnv } from './idle-memory';
import { stopWithSupervisor } from './supervisor-watch';
import { flushLogs, flushLogsSync } from './logger';

export const drainEnv = {
  // How long a stopping service keeps serving with /readyz at 503 before it stops listening, so
  // the proxy's health checks move new requests to another replica first (the fleet runner sets
  // it when a service has several; alone there is nobody to hand over to).
  DRAIN_DELAY_MS: env.int(0),
  // How long in-flight requests and running jobs may take to finish once the listener is closed;
  // past it the process exits 1 (jobs still running are picked up again as stalled jobs).
  SHUTDOWN_TIMEOUT_MS: env.int(10_000),
};

/**
 * Listens and drains on SIGINT/SIGTERM: /readyz turns 503 at once, requests are still served for
 * DRAIN_DELAY_MS, then the listener closes (new connections are refused), requests in flight
 * finish, and the app's onClose hooks release workers (after their running jobs) and pools in
 * reverse registration order, then exit 0. Past SHUTDOWN_TIMEOUT_MS, or on a second signal, the
 * process exits 1.
 */
export async function runService(
  app: App,
  opts: { port: number; host?: string; env?: Record<string, string | undefined> },
): Promise<void> {
  const { DRAIN_DELAY_MS, SHUTDOWN_TIMEOUT_MS } = loadEnv(drainEnv, opts.env ?? process.env);
  let stopping = false;
  let stopCollector = () => {};
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    stopCollector();
    app.startDraining();
    app.log.info({ signal, drainDelayMs: DRAIN_DELAY_MS, timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out');
      flushLogsSync(app.log);
      process.exit(1);
    }, DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // No new connections from here; requests and jobs in flight finish first.
    const close = () => {
      // Buffered log lines are written before the process exits (see logger.ts).
      app.close().then(
        async () => {
          app.log.info('stopped');
          await flushLogs(app.log);
          process.exit(0);
        },
        async (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          await flushLogs(app.log);
          process.exit(1);
        },
      );
    };
    if (DRAIN_DELAY_MS > 0) setTimeout(close, DRAIN_DELAY_MS);
    else close();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  stopWithSupervisor(() => stop('supervisor gone'), { source: opts.env ?? process.env });
  await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  stopCollector = collectWhenIdleFromEnv(opts.env ?? process.env, (rssMb) =>
    app.log.debug({ rssMb: Math.round(rssMb) }, 'idle: memory collected'),
  );
}
