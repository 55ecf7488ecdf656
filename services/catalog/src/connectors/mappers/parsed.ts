import { RowError } from '../feed-rows';

/** One feed record after mapping: the normalised row, or why it was rejected. */
export type Parsed<T> =
  | { rowNumber: number; row: T }
  | { rowNumber: number; reject: { key?: string | undefined; reason: string; raw: unknown } };

/** Maps records one by one; a RowError becomes a reject, anything else aborts the run. */
export async function* mapRecords<R, T>(
  records: AsyncIterable<R>,
  map: (record: R) => T | T[] | undefined,
  keyOf: (record: R) => string | undefined,
): AsyncGenerator<Parsed<T>> {
  let rowNumber = 0;
  for await (const record of records) {
    rowNumber++;
    try {
      const out = map(record);
      if (out === undefined) continue;
      for (const row of Array.isArray(out) ? out : [out]) yield { rowNumber, row };
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      yield { rowNumber, reject: { key: err.key ?? keyOf(record), reason: err.message, raw: record } };
    }
  }
}
