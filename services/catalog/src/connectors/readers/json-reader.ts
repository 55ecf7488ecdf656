import type { Readable } from 'node:stream';
import StreamJson from 'stream-json';
import Pick from 'stream-json/filters/Pick.js';
import StreamValues from 'stream-json/streamers/StreamValues.js';

/**
 * Streams the elements of the arrays found at the given top-level keys (e.g. `variants` under
 * the root array, or `stock` in `{modified_at, stock: [...]}`): each element is assembled on its
 * own, so memory stays bounded by one record, not by the file.
 *
 * `paths` are regexps over the dotted token path; `^\d+$` picks the elements of a root array.
 */
export async function* streamJsonRecords<T = Record<string, any>>(
  input: Readable,
  paths: RegExp,
): AsyncGenerator<T> {
  const pipeline = input
    .pipe(StreamJson.parser())
    .pipe(Pick.pick({ filter: (stack) => paths.test(stack.join('.')) }))
    .pipe(StreamValues.streamValues());
  input.on('error', (err) => pipeline.destroy(err));
  for await (const chunk of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
    yield chunk.value as T;
  }
}
