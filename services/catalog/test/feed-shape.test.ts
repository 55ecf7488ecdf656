import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApltDatabase, sql } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnector } from '../src/connectors/connector-registry';
import { runConnector } from '../src/connectors/connector-run.service';
import { createRun, getRun } from '../src/connectors/sync-run.repository';
import { fixtures, seedSuppliersAndCategories } from './helpers';

const opts = { batchSize: 2, productChunkRows: 2, defaultMarginPercent: '40' };

describe('a non-empty feed that yields no records fails the run and names what it holds (issue #16)', () => {
  let aplt: TestPgDatabase<ApltDatabase>;
  let scratch: string;

  beforeAll(async () => {
    aplt = await createTestPgDatabase('aplt');
    scratch = await mkdtemp(join(tmpdir(), 'catalog-shape-'));
    await seedSuppliersAndCategories(aplt.db, (code) => join(fixtures, code));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
    await aplt?.drop();
  });

  const runWith = async (supplier: string, kind: string, file: string, content: string) => {
    const path = join(scratch, file);
    await writeFile(path, content);
    await sql`UPDATE aplt_suppliers SET settings = jsonb_set(settings, ${`{feeds,${kind}}`}::text[], ${JSON.stringify(path)}::jsonb) WHERE code = ${supplier}`.execute(
      aplt.db,
    );
    const name = `${supplier}_${kind}`;
    const r = await createRun(aplt.db, { connector: name });
    await runConnector(aplt.db, r.id, findConnector(name)!, opts);
    return (await getRun(aplt.db, r.id))!;
  };

  it('JSON: a print-data file in another shape names its top-level keys', async () => {
    // The shape of the issue: a large print-data file whose records sit under keys the
    // connector does not read.
    const other = {
      meta: { generated: '2026-11-01', supplier: 'Midocean' },
      print_data: Array.from({ length: 2000 }, (_, i) => ({
        master_code: `MO${i}`,
        printing_positions: [{ id: 'FRONT', max_colours: 4 }],
      })),
      techniques: [],
    };
    const run = await runWith('01', 'printdata', 'printdata-other.json', JSON.stringify(other));
    expect(run).toMatchObject({ status: 'failed', rows_read: 0 });
    expect(run.error).toMatch(/^The printdata feed \(\d+ bytes\) yielded no records: /);
    expect(run.error).toContain('top-level keys found: "meta", "print_data", "techniques"');
  });

  it('JSON: a root array of other objects names the keys of its first element', async () => {
    const run = await runWith(
      '01',
      'stock',
      'stock-array.json',
      JSON.stringify([{ article: 'X', amount: 3 }]),
    );
    expect(run.status).toBe('failed');
    expect(run.error).toContain('a root array whose first element has the keys: "article", "amount"');
  });

  it('XML: names the root element and its children', async () => {
    const run = await runWith(
      '03',
      'stock',
      'stock-other.xml',
      '<inventory><item><code>A</code><qty>1</qty></item><item><code>B</code><qty>2</qty></item><summary/></inventory>',
    );
    expect(run.status).toBe('failed');
    expect(run.error).toContain('root element "inventory" with child elements: "item", "summary"');
  });

  it('tab-separated: names the columns of a file with a header and no lines', async () => {
    const run = await runWith('02', 'stock', 'stock-header.tsv', 'Artikel\tVoorraad\n');
    expect(run.status).toBe('failed');
    expect(run.error).toContain('columns found: "Artikel", "Voorraad"');
  });

  it('leaves the data as it was, and a feed in the right shape still succeeds', async () => {
    const ok = await runWith('01', 'stock', 'stock-ok.json', '{"stock": [{"sku": "NOPE-1", "qty": 1}]}');
    // A record was read (and rejected as an unknown SKU): the feed has the right shape.
    expect(ok).toMatchObject({ status: 'succeeded', rows_read: 1, rows_rejected: 1 });
  });
});
