import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamTsvRecords, tsvHeader } from '../src/connectors/readers/tsv-reader';

async function records(input: Readable) {
  const out: Array<Record<string, string>> = [];
  for await (const r of streamTsvRecords(input)) out.push(r);
  return out;
}

describe('TSV feeds through csv-parse (tab delimiter, quoting rules)', () => {
  it('keeps a quoted field whole: a tab, a doubled quote and a line break inside it', async () => {
    const feed =
      '\uFEFFItemCode\tName\tDescription\r\n' +
      'P1\t"Pen\tblue"\t"The ""best"" pen\r\nwith a clip"\r\n' +
      '\r\n' +
      'P2\tMug\tplain\r\n';
    expect(await records(Readable.from([feed]))).toEqual([
      { ItemCode: 'P1', Name: 'Pen\tblue', Description: 'The "best" pen\r\nwith a clip' },
      { ItemCode: 'P2', Name: 'Mug', Description: 'plain' },
    ]);
  });

  it('reads a quote inside an unquoted field as written, trims cells, fills missing cells', async () => {
    // Split across chunks in the middle of a quoted field, as a file stream would.
    const chunks = [
      ' ItemCode \tName\tSize\n',
      'T1\t 12" tablet \n',
      'T2\t"Case\t',
      ' large"\tXL\textra\n\t\t\n',
    ];
    expect(await records(Readable.from(chunks))).toEqual([
      { ItemCode: 'T1', Name: '12" tablet', Size: '' },
      { ItemCode: 'T2', Name: 'Case\t large', Size: 'XL' },
    ]);
  });

  it('fails the read when the input fails, and on a quoted field that never closes', async () => {
    const broken = new Readable({ read() {} });
    broken.push('ItemCode\tName\nA\tB\n');
    setImmediate(() => broken.destroy(new Error('disk gone')));
    await expect(records(broken)).rejects.toThrow('disk gone');
    await expect(records(Readable.from(['ItemCode\tName\nA\t"open\n']))).rejects.toMatchObject({
      code: 'CSV_QUOTE_NOT_CLOSED',
    });
  });

  it('names the header columns by the same rules', () => {
    expect(tsvHeader('ItemCode\t"Name\twith tab"\t Price ')).toEqual(['ItemCode', 'Name\twith tab', 'Price']);
    // Cut inside a quoted field (only the first bytes are read): the columns are still named.
    expect(tsvHeader('ItemCode\t"Name')).toEqual(['ItemCode', '"Name']);
  });
});
