import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
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
});
