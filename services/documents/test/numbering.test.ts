import { type ApltDatabase, createPgDb, type Kysely } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceDirect } from '../src/invoices/invoice.service';
import { allocateNumber, formatNumber } from '../src/numbering/number.repository';
import { seedCatalog } from './fixtures';

describe('document numbering', () => {
  let tdb: TestPgDatabase<ApltDatabase>;
  let pool: Kysely<ApltDatabase>;
  let customerId: number;

  beforeAll(async () => {
    tdb = await createTestPgDatabase('aplt', 'numbering');
    customerId = (await seedCatalog(tdb.db)).customerNl;
    pool = createPgDb<ApltDatabase>(tdb.address, { max: 20, applicationName: 'numbering-test' });
  });

  afterAll(async () => {
    await pool?.destroy();
    await tdb?.drop();
  });

  it('500 creations by 20 concurrent clients over 20 connections: no duplicates, and no gaps although some roll back', async () => {
    const year = 2031;
    const tasks = Array.from({ length: 500 }, (_, i) => async () => {
      if (i % 10 === 9) {
        // Allocates an invoice number and then fails: the rollback must give the number back.
        await pool
          .transaction()
          .execute(async (trx) => {
            await allocateNumber(trx, 'F', year);
            throw new Error('rolled back on purpose');
          })
          .catch(() => undefined);
        return null;
      }
      const inv = await invoiceDirect(
        pool,
        {
          customer_id: customerId,
          document_type: 'invoice',
          issue_date: `${year}-03-01`,
          lines: [{ line_type: 'product', description: `line ${i}`, quantity: 1, unit_price: '10.00' }],
        },
        'test',
      );
      return inv.invoice_number as string;
    });
    // 20 clients at once, one per pooled connection, each working through its share of the 500.
    const queue = [...tasks];
    const results: Array<string | null> = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let t = queue.shift(); t; t = queue.shift()) results.push(await t());
      }),
    );
    const numbers = results.filter((n): n is string => n !== null);
    expect(numbers).toHaveLength(450);
    expect(new Set(numbers).size).toBe(450);
    const expected = Array.from({ length: 450 }, (_, i) => formatNumber('F', year, i + 1));
    expect([...numbers].sort()).toEqual(expected);
    const seq = await pool
      .selectFrom('aplt_number_sequences')
      .select('last_value')
      .where('prefix', '=', 'F')
      .where('year', '=', year)
      .executeTakeFirstOrThrow();
    expect(seq.last_value).toBe(450);
  });

  it('starts every prefix and year at 0001 and keeps counting past 9999 with more digits', async () => {
    await pool.transaction().execute(async (trx) => {
      expect(await allocateNumber(trx, 'Q', 2040)).toBe('Q-2040-0001');
      expect(await allocateNumber(trx, 'Q', 2041)).toBe('Q-2041-0001');
      expect(await allocateNumber(trx, 'B', 2040)).toBe('B-2040-0001');
    });
    await pool
      .updateTable('aplt_number_sequences')
      .set({ last_value: 9998 })
      .where('prefix', '=', 'F')
      .where('year', '=', 2031)
      .execute();
    const a = await invoiceDirect(
      pool,
      {
        customer_id: customerId,
        document_type: 'invoice',
        issue_date: '2031-12-30',
        lines: [{ line_type: 'product', description: 'x', quantity: 1, unit_price: '1.00' }],
      },
      null,
    );
    const b = await invoiceDirect(
      pool,
      {
        customer_id: customerId,
        document_type: 'invoice',
        issue_date: '2031-12-31',
        lines: [{ line_type: 'product', description: 'y', quantity: 1, unit_price: '1.00' }],
      },
      null,
    );
    expect([a.invoice_number, b.invoice_number]).toEqual(['F-2031-9999', 'F-2031-10000']);
  });
});
