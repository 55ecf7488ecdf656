import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * Opens a feed as a byte stream, never as a whole buffer: suppliers publish files of hundreds of
 * megabytes. `http(s)://` URLs are fetched, anything else is a local path (file:// allowed).
 */
export async function openFeed(location: string): Promise<Readable> {
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
      res = await fetch(location, { redirect: 'follow', signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok || !res.body) {
      throw new Error(`Feed ${location} answered HTTP ${res.status}`);
    }
    return Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
  }
  const path = location.startsWith('file://') ? new URL(location).pathname : location;
  await stat(path); // a missing file fails the run with a clear message, before anything is written
  return createReadStream(path, { highWaterMark: 256 * 1024 });
}
