import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { createTestFleet, startTestProxy, type TestFleet, type TestProxy, testSecrets } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

/** Issue #16's contract mismatches of the documents service, through the proxy. */
describe('documents: quotation source, credit-note routes, report index, aged receivables', () => {
  let fleet: TestFleet;
  let proxy: TestProxy;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;

  const call = async (method: string, path: string, body?: object) => {
    const res = await proxy.request('acme.localhost', path, {
      method,
      body,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: res.body.length ? res.json() : null };
  };
  const line = (quantity: number, unit_price: string) => ({
    line_type: 'product',
    description: 'Item',
    quantity,
    unit_price,
  });
  const invoice = async (issue_date: string, price = '100.00') => {
    const res = await call('POST', '/admin/aplt/invoices', {
      customer_id: cat.customerNl,
      issue_date,
      payment_term_days: 30,
      lines: [line(1, price)],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; invoice_number: string; due_date: string; total: string };
  };
  const creditNote = async (invoiceId: number) => {
    const res = await call('POST', '/admin/aplt/credit-notes', {
      invoice_id: invoiceId,
      reason: 'test',
      issue_date: '2026-03-02',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number };
  };

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    cat = await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: await buildApp(deps, loadConfig(testEnv(fleet.env))),
    });
    token = await adminToken('acme');
  });

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
  });

  it('staff-created quotations and direct orders default to source manual; existing rows keep admin', async () => {
    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      lines: [line(1, '5.00')],
    });
    expect(q.status).toBe(201);
    expect(q.body.source_code).toBe('manual');
    const o = await call('POST', '/admin/aplt/orders', {
      customer_id: cat.customerNl,
      lines: [line(1, '5.00')],
    });
    expect(o.status).toBe(201);
    expect(o.body.source_code).toBe('manual');
    // An explicit source still wins, and the filter finds the staff quotations.
    const agent = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      source_code: 'agent',
      lines: [line(1, '5.00')],
    });
    expect(agent.body.source_code).toBe('agent');
    const manual = await call('GET', '/admin/aplt/quotations?source_code=manual');
    expect(manual.body.data.map((r: { id: number }) => r.id)).toEqual([q.body.id]);
    // The column's default (what rows from before source tracking carry) is unchanged.
    const db = tenantDbs(fleet, 'acme').aplt;
    const legacy = await db
      .insertInto('aplt_quotation_headers')
      .values({ quotation_number: 'Q-2020-0001', quotation_date: '2020-01-01' })
      .returning('source_code')
      .executeTakeFirstOrThrow();
    expect(legacy.source_code).toBe('admin');
  });

  it('credit notes: ?invoice_id= filters before the limit; a non-credit-note id is 404', async () => {
    const a = await invoice('2026-03-01');
    const ofA = await creditNote(a.id);
    // Newer credit notes of another invoice fill the first pages of an unfiltered list.
    const b = await call('POST', '/admin/aplt/invoices', {
      customer_id: cat.customerNl,
      issue_date: '2026-03-01',
      lines: [line(3, '10.00')],
    });
    for (let i = 0; i < 3; i++) {
      const partial = await call('POST', '/admin/aplt/credit-notes', {
        invoice_id: b.body.id,
        reason: `part ${i}`,
        issue_date: '2026-03-02',
        lines: [{ invoice_line_id: b.body.lines[0].id, quantity: 1 }],
      });
      expect(partial.status).toBe(201);
    }
    const all = await call('GET', '/admin/aplt/credit-notes?limit=2');
    expect(all.body.count).toBe(4);
    expect(all.body.data.map((r: Item) => r.credited_invoice_id)).toEqual([b.body.id, b.body.id]);
    const filtered = await call('GET', `/admin/aplt/credit-notes?invoice_id=${a.id}&limit=1`);
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ count: 1, limit: 1, offset: 0 });
    expect(filtered.body.data.map((r: { id: number }) => r.id)).toEqual([ofA.id]);

    expect((await call('GET', `/admin/aplt/credit-notes/${ofA.id}`)).status).toBe(200);
    const notACreditNote = await call('GET', `/admin/aplt/credit-notes/${a.id}`);
    expect(notACreditNote.status).toBe(404);
    expect(notACreditNote.body).toMatchObject({ type: 'not_found' });
    expect((await call('GET', '/admin/aplt/credit-notes/987654')).status).toBe(404);
    expect((await call('GET', '/admin/aplt/credit-notes/abc')).status).toBe(400);
  });

  it('GET /admin/aplt/reports is an index of the reports, and every path it names answers', async () => {
    const index = await call('GET', '/admin/aplt/reports');
    expect(index.status).toBe(200);
    const reports = index.body.reports as Array<{ name: string; path: string; parameters: unknown[] }>;
    expect(reports.map((r) => r.name)).toEqual(['aged-receivables', 'revenue', 'vat', 'dashboard']);
    expect(reports.find((r) => r.name === 'revenue')!.parameters).toEqual([
      { name: 'from', type: 'date', required: false, default: '1 January of the year of to' },
      { name: 'to', type: 'date', required: false, default: 'today' },
      {
        name: 'period',
        type: 'enum',
        values: ['month', 'quarter', 'year'],
        required: false,
        default: 'month',
      },
    ]);
    expect(reports.find((r) => r.name === 'aged-receivables')!.parameters).toEqual([
      { name: 'as_of', type: 'date', required: false, default: 'today' },
    ]);
    for (const r of reports) {
      expect(r.path).toBe(`/admin/aplt/reports/${r.name}`);
      expect((await call('GET', r.path)).status, r.path).toBe(200);
    }
    const anon = await proxy.request('acme.localhost', '/admin/aplt/reports');
    expect(anon.status).toBe(401);
  });

  it('aged receivables: invoices not yet due have their own bucket; the buckets add up to the total', async () => {
    const inv = await invoice('2027-01-01', '50.00'); // due 2027-01-31
    expect(inv.due_date).toBe('2027-01-31');
    const aged = async (asOf: string) =>
      (await call('GET', `/admin/aplt/reports/aged-receivables?as_of=${asOf}`)).body;
    const mine = (r: { invoices: Array<{ id: number; bucket: string }> }) =>
      r.invoices.find((i: { id: number }) => i.id === inv.id);
    const sum = (b: Record<string, string>) =>
      Object.values(b)
        .reduce((s, v) => s + Math.round(Number(v) * 100), 0)
        .toString();

    for (const [asOf, bucket] of [
      ['2027-01-15', 'not_yet_due'],
      ['2027-01-31', 'not_yet_due'], // due today: not overdue yet
      ['2027-02-01', '0-30'],
      ['2027-03-02', '0-30'],
      ['2027-03-03', '31-60'],
      ['2027-05-02', '90+'],
    ] as const) {
      const r = await aged(asOf);
      expect(mine(r)!.bucket, asOf).toBe(bucket);
      expect(Object.keys(r.buckets)).toEqual(['not_yet_due', '0-30', '31-60', '61-90', '90+']);
      expect(sum(r.buckets), asOf).toBe(String(Math.round(Number(r.total) * 100)));
      expect(r.not_yet_due).toBe(r.buckets.not_yet_due);
    }
    const early = await aged('2027-01-15');
    expect(early.buckets['0-30']).not.toContain(inv.total);
    const customer = early.customers.find((c: { customer_id: number }) => c.customer_id === cat.customerNl);
    expect(Number(customer.not_yet_due)).toBeGreaterThanOrEqual(Number(inv.total));
  });
});
