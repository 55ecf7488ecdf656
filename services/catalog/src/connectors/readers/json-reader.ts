import { pipeline, type Readable } from 'node:stream';
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
  // pipeline() forwards an error of any stage (a truncated or malformed feed) to the consumer.
  const out = pipeline(
    input,
    StreamJson.parser(),
    Pick.pick({ filter: (stack) => paths.test(stack.join('.')) }),
    StreamValues.streamValues(),
    () => {},
  );
  for await (const chunk of out as AsyncIterable<{ key: number; value: unknown }>) {
    yield chunk.value as T;
  }
}
