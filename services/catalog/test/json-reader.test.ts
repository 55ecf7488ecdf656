import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonFeeds } from '../src/connectors/mappers/json-mapper';
import { streamJsonRecords } from '../src/connectors/readers/json-reader';

/** Feeds text in chunks of `size` bytes, so records, strings and UTF-8 characters straddle chunks. */
function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

const collect = async (text: string, paths: RegExp, size = 3) => {
  const out: unknown[] = [];
  for await (const r of streamJsonRecords(chunked(text, size), paths)) out.push(r);
  return out;
};

describe('streaming JSON record scanner', () => {
  it('cuts out the records of a root array, whatever the chunk boundaries', async () => {
    const records = [
      { a: 'x]}{[', b: [1, { c: 'q"uote' }] },
      { name: 'Kugelschreiber für Büro – €0,48 ✓', esc: 'back\\\\slash \\"' },
      [1, 2, 3],
    ];
    const text = JSON.stringify(records, null, 2);
    for (const size of [1, 2, 3, 7, 64, 100_000]) expect(await collect(text, /^\d+$/, size)).toEqual(records);
  });

  it('picks the elements of named arrays in a root object and skips everything else', async () => {
    const feed = {
      modified_at: '2026-11-21',
      stock: [
        { sku: 'A', qty: 1 },
        { sku: 'B', qty: 2 },
      ],
      other: [{ sku: 'skip' }],
      nested: { stock: [{ sku: 'not at the top' }] },
      print_techniques: [{ id: 'P1' }],
      products: [{ master_code: 'M1', printing_positions: [{ position_id: 'FRONT' }] }],
    };
    expect(await collect(JSON.stringify(feed), /^stock\.\d+$/)).toEqual(feed.stock);
    expect(await collect(JSON.stringify(feed), /^(print_techniques|products)\.\d+$/)).toEqual([
      ...feed.print_techniques,
      ...feed.products,
    ]);
  });

  it('fails on a truncated or malformed feed instead of ending quietly', async () => {
    await expect(collect('[{"a":1},{"b":', /^\d+$/)).rejects.toThrow(/truncated/);
    await expect(collect('[{"a":1}, {"b": tru}]', /^\d+$/)).rejects.toThrow();
    await expect(collect('', /^\d+$/)).rejects.toThrow(/empty/);
  });

  it("hands over the root object's string values, and prices take the list's currency", async () => {
    const root: Record<string, string> = {};
    const text = '{"date":"2026-11-21","currency":"USD","price":[{"sku":"A","price":"1,00"}],"n":3}';
    const out: unknown[] = [];
    for await (const r of streamJsonRecords(chunked(text, 5), /^price\.\d+$/, root)) out.push(r);
    expect(out).toEqual([{ sku: 'A', price: '1,00' }]);
    expect(root).toEqual({ date: '2026-11-21', currency: 'USD' });

    const rows = async (feed: string) => {
      const got: unknown[] = [];
      for await (const p of jsonFeeds.prices(chunked(feed, 7))) got.push('row' in p ? p.row : p);
      return got;
    };
    const priced = await rows(
      '{"currency":"USD","price":[{"sku":"A","price":"1,00"},{"sku":"B","price":"2,00","currency":"GBP"}]}',
    );
    expect(priced.map((r) => (r as { currency: string }).currency)).toEqual(['USD', 'GBP']);
    expect(
      (await rows('{"price":[{"sku":"A","price":"1,00"}]}')).map((r) => (r as { currency: string }).currency),
    ).toEqual(['EUR']);
    // Named only after the prices: the run fails instead of storing dollars as euros.
    await expect(rows('{"price":[{"sku":"A","price":"1,00"}],"currency":"USD"}')).rejects.toThrow(
      /names its currency \(USD\) after its prices/,
    );
  });
});
