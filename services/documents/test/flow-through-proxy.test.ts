import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  httpRequest,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

describe('quotation -> order -> invoice -> credit note -> payments, through the proxy', () => {
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

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    cat = await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      // The access service signs assertions with this process's key; documents verifies them.
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: await buildApp(deps, loadConfig(testEnv(fleet.env))),
    });
    token = await adminToken('acme');
  });

  afterAll(async () => {
    await proxy?.stop();
    await fleet?.cleanup();
  });

  it('runs the whole flow and keeps the books balanced', async () => {
    // Without a token the admin routes answer 401.
    const anon = await proxy.request('acme.localhost', '/admin/aplt/quotations');
    expect(anon.status).toBe(401);
    // With one, but straight to the service's port instead of through the proxy: 401 too.
    const direct = await httpRequest(`http://127.0.0.1:${proxy.ports.documents}/admin/aplt/quotations`, {
      host: 'acme.localhost',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(direct.status).toBe(401);
    expect(direct.json()).toMatchObject({ type: 'unauthorized' });

    // Quotation: 250 pens at the 100+ tier (1.50) + tampo print 0.40, setup 2 colours x 45.00.
    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      title: 'Pennen met logo',
      source_code: 'manual',
      lines: [{ product_id: cat.productId, quantity: 250, technique_id: cat.techniqueId, print_colours: 2 }],
    });
    expect(q.status).toBe(201);
    expect(q.body.quotation_number).toMatch(/^Q-\d{4}-0001$/);
    expect(q.body.lines[0]).toMatchObject({
      unit_price: '1.5000',
      print_unit_price: '0.4000',
      line_total: '475.00',
    });
    expect(q.body.lines[0].setup_costs).toHaveLength(1);
    expect(q.body.lines[0].setup_costs[0]).toMatchObject({ quantity: 2, total: '90.00' });
    // 565.00 goods < franco 750 -> 12.99 shipping; VAT 21% of 577.99 = 121.3779 -> 121.38.
    expect(q.body).toMatchObject({
      subtotal: '475.00',
      setup_cost_total: '90.00',
      shipping_cost: '12.99',
      vat_total: '121.38',
      total: '699.37',
    });
    const validity = (Date.parse(q.body.valid_until) - Date.parse(q.body.quotation_date)) / 86_400_000;
    expect(validity).toBe(30);

    // Order, and a second conversion refused.
    const o = await call('POST', '/admin/aplt/quotations/confirm', { id: q.body.id });
    expect(o.status).toBe(201);
    expect(o.body.order_number).toMatch(/^O-\d{4}-0001$/);
    expect(o.body.lines.map((l: Item) => l.line_type)).toEqual(['product', 'setup', 'shipping']);
    expect(o.body.total).toBe('699.37');
    const again = await call('POST', '/admin/aplt/quotations/confirm', { id: q.body.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: 'conflict', order_number: o.body.order_number });
    expect((await call('GET', `/admin/aplt/quotations/${q.body.id}`)).body.status).toBe('accepted');

    // Order state machine.
    const skip = await call('POST', '/admin/aplt/orders/status', { id: o.body.id, status: 'shipped' });
    expect(skip.status).toBe(409);
    expect(skip.body).toMatchObject({
      type: 'conflict',
      status: 'pending',
      allowed: ['confirmed', 'cancelled'],
    });
    for (const status of ['confirmed', 'shipped', 'delivered'] as const) {
      const r = await call('POST', '/admin/aplt/orders/status', {
        id: o.body.id,
        status,
        ...(status === 'shipped'
          ? { tracking_url: 'https://track.example/123', expected_delivery_date: '2026-01-09' }
          : {}),
      });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(status);
    }
    const delivered = await call('GET', `/admin/aplt/orders/${o.body.id}`);
    expect(delivered.body).toMatchObject({
      tracking_url: 'https://track.example/123',
      expected_delivery_date: '2026-01-09',
    });
    expect(
      (await call('POST', '/admin/aplt/orders/status', { id: o.body.id, status: 'pending' })).status,
    ).toBe(409);

    // Invoice from the order, due in 30 days.
    const inv = await call('POST', '/admin/aplt/invoices', {
      order_id: o.body.id,
      issue_date: '2026-01-10',
      payment_term_days: 30,
    });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({
      invoice_number: 'F-2026-0001',
      due_date: '2026-02-09',
      subtotal: '577.99',
      vat_total: '121.38',
      total: '699.37',
      reverse_charge: false,
    });
    expect(inv.body.vat_summary).toHaveLength(1);
    expect(inv.body.vat_summary[0]).toMatchObject({
      vat_category: 'S',
      vat_rate: '21.00',
      taxable_amount: '577.99',
      vat_amount: '121.38',
    });
    expect((await call('POST', '/admin/aplt/invoices', { order_id: o.body.id })).status).toBe(409);

    // Partial credit: 50 of the 250 pens (50 x 1.90 = 95.00 + 19.95 VAT).
    const productLine = inv.body.lines.find((l: Item) => l.line_type === 'product');
    const tooMuch = await call('POST', '/admin/aplt/credit-notes', {
      invoice_id: inv.body.id,
      reason: 'x',
      lines: [{ invoice_line_id: productLine.id, quantity: 251 }],
    });
    expect(tooMuch.status).toBe(409);
    const cn = await call('POST', '/admin/aplt/credit-notes', {
      invoice_id: inv.body.id,
      reason: '50 pennen beschadigd',
      issue_date: '2026-01-20',
      lines: [{ invoice_line_id: productLine.id, quantity: 50 }],
    });
    expect(cn.status).toBe(201);
    expect(cn.body).toMatchObject({
      invoice_number: 'C-2026-0001',
      document_type: 'credit_note',
      subtotal: '95.00',
      vat_total: '19.95',
      total: '114.95',
    });
    const afterCredit = await call('GET', `/admin/aplt/invoices/${inv.body.id}`);
    expect(afterCredit.body).toMatchObject({ credited_total: '114.95', balance: '584.42' });

    // Aged receivables move with the as_of date (due 2026-02-09).
    const aged = async (asOf: string) =>
      (await call('GET', `/admin/aplt/reports/aged-receivables?as_of=${asOf}`)).body;
    expect((await aged('2026-02-01')).buckets).toEqual({
      not_yet_due: '584.42',
      '0-30': '0.00',
      '31-60': '0.00',
      '61-90': '0.00',
      '90+': '0.00',
    });
    expect((await aged('2026-03-20')).buckets).toEqual({
      not_yet_due: '0.00',
      '0-30': '0.00',
      '31-60': '584.42',
      '61-90': '0.00',
      '90+': '0.00',
    });
    expect((await aged('2026-04-20')).buckets['61-90']).toBe('584.42');
    expect((await aged('2026-05-15')).buckets['90+']).toBe('584.42');
    // Before the credit note was issued the full amount was open.
    expect((await aged('2026-01-15')).buckets.not_yet_due).toBe('699.37');

    // Over-allocation is refused.
    const over = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '10.00',
      allocations: [{ invoice_id: inv.body.id, amount: '20.00' }],
    });
    expect(over.status).toBe(422);
    const beyond = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '900.00',
      allocations: [{ invoice_id: inv.body.id, amount: '600.00' }],
    });
    expect(beyond.status).toBe(409);

    // Two payments; the second pays 15.58 too much, which stays as customer credit.
    const p1 = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '300.00',
      payment_date: '2026-06-01',
      allocations: [{ invoice_id: inv.body.id, amount: '300.00' }],
    });
    expect(p1.status).toBe(201);
    expect(p1.body.payment_number).toBe('B-2026-0001');
    expect((await call('GET', `/admin/aplt/invoices/${inv.body.id}`)).body).toMatchObject({
      status: 'overdue',
      balance: '284.42',
    });
    const p2 = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '300.00',
      payment_date: '2026-06-05',
      allocations: [{ invoice_id: inv.body.id, amount: '284.42' }],
    });
    expect(p2.status).toBe(201);
    expect(p2.body.unapplied_credit).toMatchObject({ amount: '15.58', remaining_amount: '15.58' });
    const paid = await call('GET', `/admin/aplt/invoices/${inv.body.id}`);
    expect(paid.body).toMatchObject({ status: 'paid', balance: '0.00', paid_total: '584.42' });
    const credit = await call('GET', `/admin/aplt/payments/customer-credit?customer_id=${cat.customerNl}`);
    expect(credit.body.available).toBe('15.58');

    // The chain from the last payment shows every link.
    const chain = await call('GET', `/admin/aplt/document-chain?type=payment&id=${p2.body.id}`);
    expect(chain.status).toBe(200);
    const numbers = chain.body.documents.map((d: Item) => d.number);
    expect(numbers).toEqual([
      q.body.quotation_number,
      o.body.order_number,
      'F-2026-0001',
      'C-2026-0001',
      'B-2026-0001',
      'B-2026-0002',
    ]);
    expect(chain.body.relations.map((r: Item) => r.relation_type).sort()).toEqual([
      'allocated',
      'allocated',
      'converted',
      'credited',
      'invoiced',
    ]);
    const fromQuote = await call('GET', `/admin/aplt/document-chain?number=${q.body.quotation_number}`);
    expect(fromQuote.body.documents).toHaveLength(6);

    // After the payments the aged report is empty; as of May it still shows the 90+ balance.
    expect((await aged('2026-07-01')).total).toBe('0.00');
    expect((await aged('2026-05-15')).buckets['90+']).toBe('584.42');

    // Every journal balances, and the customer's receivable is exactly zero.
    const db = tenantDbs(fleet, 'acme').aplt;
    const entries = await db
      .selectFrom('aplt_journal_entries as e')
      .innerJoin('aplt_journal_lines as l', 'l.journal_entry_id', 'e.id')
      .select((eb) => [
        'e.id',
        'e.source_type',
        eb.fn.sum<string>('l.debit').as('debit'),
        eb.fn.sum<string>('l.credit').as('credit'),
      ])
      .groupBy(['e.id', 'e.source_type'])
      .execute();
    expect(entries.map((e) => e.source_type).sort()).toEqual([
      'credit_note',
      'invoice',
      'payment',
      'payment',
    ]);
    for (const e of entries) expect(e.debit).toBe(e.credit);
    const receivable = await db
      .selectFrom('aplt_journal_lines as l')
      .innerJoin('aplt_ledger_accounts as a', 'a.id', 'l.ledger_account_id')
      .select((eb) => [eb.fn.sum<string>('l.debit').as('debit'), eb.fn.sum<string>('l.credit').as('credit')])
      .where('a.system_key', '=', 'receivables')
      .executeTakeFirstOrThrow();
    expect(receivable.debit).toBe(receivable.credit);

    // Reports over the period.
    const revenue = await call(
      'GET',
      '/admin/aplt/reports/revenue?from=2026-01-01&to=2026-12-31&period=month',
    );
    expect(revenue.body.data[0]).toMatchObject({
      period: '2026-01-01',
      invoiced: '577.99',
      credited: '95.00',
      net_revenue: '482.99',
    });
    const vat = await call('GET', '/admin/aplt/reports/vat?from=2026-01-01&to=2026-12-31&period=quarter');
    expect(vat.body.data[0]).toMatchObject({
      vat_category: 'S',
      vat_rate: '21.00',
      taxable_amount: '482.99',
      vat_amount: '101.43',
    });
    const kpi = await call('GET', '/admin/aplt/reports/dashboard?as_of=2026-01-31');
    expect(kpi.body).toMatchObject({ revenue_this_month: '482.99', overdue_amount: '0.00' });
  });
});
