import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { addAbortSignal, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * Opens a feed as a byte stream, never as a whole buffer: suppliers publish files of hundreds of
 * megabytes. `http(s)://` URLs are fetched, anything else is a local path (file:// allowed).
 * `signal` (the run's time limit) cancels the download and errors the stream, so a feed host
 * that trickles bytes cannot hold a run past its limit.
 */
export async function openFeed(location: string, signal?: AbortSignal): Promise<Readable> {
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
    return withSignal(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), signal);
  }
  const path = location.startsWith('file://') ? new URL(location).pathname : location;
  await stat(path); // a missing file fails the run with a clear message, before anything is written
  return withSignal(createReadStream(path, { highWaterMark: 256 * 1024 }), signal);
}

function withSignal(stream: Readable, signal: AbortSignal | undefined): Readable {
  if (!signal) return stream;
  addAbortSignal(signal, stream);
  // The reader sees the abort through its iterator (the stream stays errored); this listener only
  // keeps an abort that lands before the reader has started from being an unhandled 'error'.
  stream.on('error', () => {});
  return stream;
}
