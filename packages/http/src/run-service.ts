import type { App } from './create-app';
import { flushLogs, flushLogsSync } from './logger';

/**
 * Listens and shuts down in order on SIGINT/SIGTERM: HTTP stops taking requests first (readyz
 * turns 503), then the app's onClose hooks release workers and pools in reverse registration
 * order. A second signal forces exit.
 */
export async function runService(app: App, opts: { port: number; host?: string }): Promise<void> {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      flushLogsSync(app.log);
      process.exit(1);
    }, 15_000);
    timer.unref();
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
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
}
