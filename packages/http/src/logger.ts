import type { FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';

export interface LoggerOptions {
  /** Service name: the `service` field of every line. */
  name: string;
  level?: string;
  /** Human-readable lines through pino-pretty (a worker thread); development only. */
  pretty?: boolean;
  /** A file path or file descriptor; default stdout. */
  destination?: string | number;
}

/**
 * The fleet's logger as production runs it: JSON lines written asynchronously (a SonicBoom
 * buffer flushed by the event loop, `sync: false`), so a request never waits for a write(2).
 * What is buffered is written synchronously when the process exits (pino registers the flush on
 * `exit`; runService also calls flushLogs before it exits). Secrets in headers are redacted.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    level: opts.level ?? 'info',
    base: { service: opts.name },
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  };
  if (opts.pretty)
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  return pino(options, pino.destination({ dest: opts.destination ?? 1, sync: false }));
}

type Stream = { flushSync?: () => void; _writing?: boolean };
const streamOf = (log: FastifyBaseLogger): Stream | undefined =>
  (log as unknown as Record<symbol, Stream | undefined>)[pino.symbols.streamSym];

/**
 * Writes what the logger still buffers, synchronously (the last resort before process.exit).
 * A chunk whose asynchronous write is under way is not included (SonicBoom's flushSync skips
 * it): call flushLogs first when there is time.
 */
export function flushLogsSync(log: FastifyBaseLogger): void {
  try {
    streamOf(log)?.flushSync?.();
  } catch {
    /* a stream not yet open or already closed has nothing to flush */
  }
}

/**
 * Waits for the asynchronous write under way (a reader slower than the service, e.g. a full
 * pipe, can hold it up), then writes the rest synchronously. Without the wait, exiting loses
 * that chunk (about 200 lines of 80 bytes; seen in logging.test.ts).
 */
export async function flushLogs(log: FastifyBaseLogger, timeoutMs = 5_000): Promise<void> {
  const stream = streamOf(log);
  const deadline = Date.now() + timeoutMs;
  while (stream?._writing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  flushLogsSync(log);
}
