import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { addAbortSignal, pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * Opens a feed as a byte stream, never as a whole buffer: suppliers publish files of hundreds of
 * megabytes. `http(s)://` URLs are fetched, anything else is a local path (file:// allowed).
 * `signal` (the run's time limit) cancels the download and errors the stream, so a feed host
 * that trickles bytes cannot hold a run past its limit.
 */
export async function openFeed(location: string, signal?: AbortSignal): Promise<Readable> {
  return (await openSizedFeed(location, signal)).stream;
}

/**
 * openFeed, with the feed's size in bytes when it is known before reading: a file's size, or an
 * HTTP response's Content-Length when the body is not compressed (fetch unpacks a compressed body,
 * so its length is not what is read). Connector runs report their progress against it.
 */
export async function openSizedFeed(
  location: string,
  signal?: AbortSignal,
): Promise<{ stream: Readable; size: number | null }> {
  signal?.throwIfAborted();
  if (/^https?:\/\//i.test(location)) {
    // A supplier host that never answers must fail the run, not hold it (and its slot) forever;
    // the limit covers the response headers only, a long body download is fine.
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`Feed ${location} did not answer within 60 s`)),
      60_000,
    );
    let res: Response;
    try {
      res = await fetch(location, {
        redirect: 'follow',
        signal: signal ? AbortSignal.any([controller.signal, signal]) : controller.signal,
      });
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok || !res.body) {
      throw new Error(`Feed ${location} answered HTTP ${res.status}`);
    }
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    const encoded = (res.headers.get('content-encoding') ?? 'identity') !== 'identity';
    return {
      stream: withSignal(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), signal),
      size: Number.isSafeInteger(length) && length > 0 && !encoded ? length : null,
    };
  }
  const path = location.startsWith('file://') ? new URL(location).pathname : location;
  const file = await stat(path); // a missing file fails the run with a clear message, before anything is written
  return {
    stream: withSignal(createReadStream(path, { highWaterMark: 256 * 1024 }), signal),
    size: file.size > 0 ? file.size : null,
  };
}

/**
 * The same bytes, counted as the reader takes them (`onBytes` gets the running total). Errors of
 * the source (a cut connection, the run's time limit) reach the reader unchanged.
 */
export function countBytes(source: Readable, onBytes: (total: number) => void): Readable {
  let total = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      onBytes(total);
      done(null, chunk);
    },
  });
  pipeline(source, counted, () => {});
  return counted;
}

function withSignal(stream: Readable, signal: AbortSignal | undefined): Readable {
  if (!signal) return stream;
  addAbortSignal(signal, stream);
  // The reader sees the abort through its iterator (the stream stays errored); this listener only
  // keeps an abort that lands before the reader has started from being an unhandled 'error'.
  stream.on('error', () => {});
  return stream;
}
