import { allFeaturesClient, featureKeys, staticFeatureSource } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import { createTestFleet, createTestRedis, type TestFleet, type TestRedis, viaProxy } from '@aplt/testing';
import { QueueEvents } from 'bullmq';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { startDocumentsWorker } from '../src/jobs/documents.worker';
import { adminToken, customerToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

type App = Awaited<ReturnType<typeof buildApp>>;

describe('document rules (in-process app, real databases)', () => {
  let fleet: TestFleet;
  let app: App;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;
  const host = 'acme.localhost';

  const call = async (method: string, url: string, payload?: object, auth: string | null = token) => {
    const res = await app.inject({
      method: method as InjectOptions['method'],
      url,
      payload,
      headers: { ...viaProxy(host), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const line = (quantity: number, unit_price: string, extra: object = {}) => ({
    line_type: 'product',
    description: 'Item',
    quantity,
    unit_price,
    ...extra,
  });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    cat = await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(fleet.env)),
    );
    token = await adminToken('acme');
  });

  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('computes VAT per rate on the category sum, rounded once (BR-CO-17)', async () => {
    // Three lines of 0.35 at 21%: per line 0.0735 -> 0.07 x 3 = 0.21; on the sum 1.05 x 21% = 0.2205 -> 0.22.
    // Plus 9% lines 10.05 + 10.05: 20.10 x 9% = 1.809 -> 1.81 (per line 0.90 + 0.90 = 1.80).
    const inv = await call('POST', '/admin/aplt/invoices', {
      customer_id: cat.customerNl,
      issue_date: '2026-03-01',
      lines: [
        line(1, '0.35'),
        line(1, '0.35'),
        line(1, '0.35'),
        line(1, '10.05', { vat_rate: '9' }),
        line(1, '10.05', { vat_rate: '9' }),
      ],
    });
    expect(inv.status).toBe(201);
    expect(
      inv.body.vat_summary.map((r: Item) => [r.vat_category, r.vat_rate, r.taxable_amount, r.vat_amount]),
    ).toEqual([
      ['S', '21.00', '1.05', '0.22'],
      ['S', '9.00', '20.10', '1.81'],
    ]);
    expect(inv.body).toMatchObject({
      subtotal: '21.15',
      vat_total: '2.03',
      total: '23.18',
      due_date: '2026-03-31',
    });
  });

  it('reverse-charges an intra-EU B2B customer with a VAT number: 0%, category AE, "BTW verlegd"', async () => {
    const inv = await call('POST', '/admin/aplt/invoices', {
      customer_id: cat.customerDe,
      lines: [line(10, '12.50')],
    });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({
      reverse_charge: true,
      vat_note: 'BTW verlegd',
      vat_total: '0.00',
      total: '125.00',
      customer_vat_number: 'DE123456789',
    });
    expect(inv.body.vat_summary).toEqual([
      expect.objectContaining({
        vat_category: 'AE',
        vat_rate: '0.00',
        taxable_amount: '125.00',
        vat_amount: '0.00',
      }),
    ]);
    expect(inv.body.lines[0]).toMatchObject({ vat_category: 'AE', vat_rate: '0.00' });
    const journal = (await call('GET', `/admin/aplt/invoices/${inv.body.id}`)).body.journal;
    expect(journal[0].lines.map((l: Item) => l.system_key).sort()).toEqual(['receivables', 'revenue']);
    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerDe,
      lines: [line(10, '12.50')],
    });
    expect(q.body).toMatchObject({ vat_total: '0.00', shipping_cost: '12.99', total: '137.99' });
  });

  it('zero-rates an export outside the EU in category G, and charges Dutch VAT to a private customer in the EU', async () => {
    const db = tenantDbs(fleet, 'acme').aplt;
    const customer = (values: { email: string; country: string; vat_number?: string; company?: string }) =>
      db
        .insertInto('aplt_customers')
        .values({ city: 'X', ...values })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.id));
    const swiss = await customer({ email: 'einkauf@werbe.ch', country: 'CH', company: 'Werbe AG' });
    const american = await customer({ email: 'jane@example.com', country: 'US' });
    const germanPrivate = await customer({ email: 'max@example.de', country: 'DE' });

    for (const customerId of [swiss, american]) {
      const inv = await call('POST', '/admin/aplt/invoices', {
        customer_id: customerId,
        lines: [line(10, '12.50'), line(2, '10.00', { vat_rate: '9' })],
      });
      expect(inv.status).toBe(201);
      expect(inv.body).toMatchObject({
        reverse_charge: false,
        vat_note: 'Export buiten de EU',
        vat_total: '0.00',
        total: '145.00',
      });
      // One G row at 0 %, whatever rates the lines came with (EN 16931 BR-G-01, BR-G-05).
      expect(inv.body.vat_summary).toEqual([
        expect.objectContaining({
          vat_category: 'G',
          vat_rate: '0.00',
          taxable_amount: '145.00',
          vat_amount: '0.00',
        }),
      ]);
      expect(inv.body.lines.map((l: Item) => [l.vat_category, l.vat_rate])).toEqual([
        ['G', '0.00'],
        ['G', '0.00'],
      ]);
      const q = await call('POST', '/admin/aplt/quotations', {
        customer_id: customerId,
        lines: [line(10, '12.50')],
      });
      expect(q.status).toBe(201);
      expect(q.body).toMatchObject({ vat_total: '0.00', total: '137.99' });
      const proposal = await call('POST', '/admin/aplt/quotations/price-proposal', {
        product_id: cat.productId,
        quantity: 100,
        customer_id: customerId,
      });
      expect(proposal.status, JSON.stringify(proposal.body)).toBe(200);
      expect(proposal.body).toMatchObject({
        vat_category: 'G',
        vat_rate: '0.00',
        vat_amount: '0.00',
        reverse_charge: false,
      });
    }

    // In the EU without a VAT number: a consumer, so Dutch VAT (no reverse charge, no export).
    const inv = await call('POST', '/admin/aplt/invoices', {
      customer_id: germanPrivate,
      lines: [line(10, '12.50')],
    });
    expect(inv.body).toMatchObject({ reverse_charge: false, vat_note: null, vat_total: '26.25' });
    expect(inv.body.vat_summary.map((r: Item) => r.vat_category)).toEqual(['S']);
  });

  it('applies franco pricing: free only above the limit, settings override env, per-box cost when configured', async () => {
    const quote = async (price: string, qty = 1) =>
      (
        await call('POST', '/admin/aplt/quotations', {
          customer_id: cat.customerNl,
          lines: [line(qty, price)],
        })
      ).body;
    // Spec 1: "shipping is free above a threshold" - at exactly 750.00 shipping is still charged.
    expect((await quote('749.99')).shipping_cost).toBe('12.99');
    expect((await quote('750.00')).shipping_cost).toBe('12.99');
    expect((await quote('750.01')).shipping_cost).toBe('0.00');
    const db = tenantDbs(fleet, 'acme').aplt;
    await db
      .insertInto('aplt_settings')
      .values([
        { key: 'franco_limit', value: '500.00', value_type: 'number' },
        { key: 'shipping_cost_default', value: '9.95', value_type: 'number' },
      ])
      .execute();
    expect((await quote('500.01')).shipping_cost).toBe('0.00');
    expect((await quote('500.00')).shipping_cost).toBe('9.95');
    await db
      .insertInto('aplt_settings')
      .values([
        { key: 'shipping_cost_per_box', value: '6.50' },
        { key: 'units_per_box', value: '100' },
      ])
      .execute();
    expect((await quote('1.00', 250)).shipping_cost).toBe('19.50');
    await db.deleteFrom('aplt_settings').execute();
  });

  it('keeps an overpayment and a credit on a paid invoice as customer credit, and spends it later', async () => {
    const a = (
      await call('POST', '/admin/aplt/invoices', { customer_id: cat.customerNl, lines: [line(1, '100.00')] })
    ).body; // 121.00
    const b = (
      await call('POST', '/admin/aplt/invoices', { customer_id: cat.customerNl, lines: [line(1, '50.00')] })
    ).body; // 60.50
    const pay = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '150.00',
      allocations: [{ invoice_id: a.id, amount: '121.00' }],
    });
    expect(pay.body.unapplied_credit.remaining_amount).toBe('29.00');
    // Full credit of the paid invoice: all 121.00 becomes customer credit.
    const cn = await call('POST', '/admin/aplt/credit-notes', { invoice_id: a.id, reason: 'retour' });
    expect(cn.status).toBe(201);
    expect(cn.body.total).toBe('121.00');
    expect(
      (await call('POST', '/admin/aplt/credit-notes', { invoice_id: a.id, reason: 'again' })).status,
    ).toBe(409);
    expect(
      (await call('GET', `/admin/aplt/payments/customer-credit?customer_id=${cat.customerNl}`)).body
        .available,
    ).toBe('150.00');
    const use = await call('POST', '/admin/aplt/payments/allocate-credit', { invoice_id: b.id });
    expect(use.status).toBe(201);
    expect(use.body.allocated).toBe('60.50');
    expect((await call('GET', `/admin/aplt/invoices/${b.id}`)).body).toMatchObject({
      status: 'paid',
      balance: '0.00',
    });
    expect(
      (await call('GET', `/admin/aplt/payments/customer-credit?customer_id=${cat.customerNl}`)).body
        .available,
    ).toBe('89.50');
    expect((await call('POST', '/admin/aplt/payments/allocate-credit', { invoice_id: b.id })).status).toBe(
      409,
    );
    const db = tenantDbs(fleet, 'acme').aplt;
    const unbalanced = await db
      .selectFrom('aplt_journal_lines')
      .select(['journal_entry_id', db.fn.sum<string>('debit').as('d'), db.fn.sum<string>('credit').as('c')])
      .groupBy('journal_entry_id')
      .execute();
    expect(unbalanced.length).toBeGreaterThan(0);
    for (const e of unbalanced) expect(e.d).toBe(e.c);
  });

  it('credits partially in steps and never beyond the invoice; the last credit takes the exact remainder', async () => {
    const inv = (
      await call('POST', '/admin/aplt/invoices', { customer_id: cat.customerNl, lines: [line(3, '33.35')] })
    ).body; // 100.05 + 21.01
    expect(inv.total).toBe('121.06');
    const lid = inv.lines[0].id;
    const c1 = (
      await call('POST', '/admin/aplt/credit-notes', {
        invoice_id: inv.id,
        reason: 'a',
        lines: [{ invoice_line_id: lid, quantity: 1 }],
      })
    ).body;
    const c2 = (
      await call('POST', '/admin/aplt/credit-notes', {
        invoice_id: inv.id,
        reason: 'b',
        lines: [{ invoice_line_id: lid, quantity: 2 }],
      })
    ).body;
    expect([c1.total, c2.total]).toEqual(['40.35', '80.71']);
    const after = (await call('GET', `/admin/aplt/invoices/${inv.id}`)).body;
    expect(after).toMatchObject({ credited_total: '121.06', balance: '0.00', status: 'cancelled' });
  });

  it('makes a proforma (P) that books nothing and does not consume the order', async () => {
    const q = (
      await call('POST', '/admin/aplt/quotations', {
        customer_id: cat.customerNl,
        lines: [line(2, '400.00')],
      })
    ).body;
    const o = (await call('POST', '/admin/aplt/quotations/confirm', { id: q.id })).body;
    const p = await call('POST', '/admin/aplt/invoices', { order_id: o.id, document_type: 'proforma' });
    expect(p.status).toBe(201);
    expect(p.body.invoice_number).toMatch(/^P-\d{4}-\d{4}$/);
    expect(p.body.journal).toBeUndefined();
    const db = tenantDbs(fleet, 'acme').aplt;
    expect(
      await db
        .selectFrom('aplt_journal_entries')
        .selectAll()
        .where('source_id', '=', p.body.id)
        .where('source_type', '=', 'invoice')
        .execute(),
    ).toEqual([]);
    const f = await call('POST', '/admin/aplt/invoices', { order_id: o.id });
    expect(f.status).toBe(201);
    expect(f.body.total).toBe(p.body.total);
    expect((await call('DELETE', `/admin/aplt/invoices/${f.body.id}`)).status).toBe(409);
    expect((await call('DELETE', `/admin/aplt/invoices/${p.body.id}`)).status).toBe(204);
  });

  it('quotation CRUD, validation errors and source filtering', async () => {
    const created = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      source_code: 'web',
      lines: [line(1, '10.00')],
    });
    expect(created.status).toBe(201);
    const upd = await call('PUT', `/admin/aplt/quotations/${created.body.id}`, {
      title: 'Nieuw',
      lines: [line(2, '10.00'), line(1, '5.00', { discount_percent: '10' })],
    });
    expect(upd.body).toMatchObject({ title: 'Nieuw', subtotal: '24.50' });
    const bad = await call('POST', '/admin/aplt/quotations', {
      lines: [{ quantity: -1, unit_price: 'abc' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('invalid_data');
    expect((await call('POST', '/admin/aplt/quotations', { lines: [{ product_id: 999999 }] })).status).toBe(
      422,
    );
    const web = await call('GET', '/admin/aplt/quotations?source_code=web');
    expect(web.body.data.length).toBeGreaterThan(0);
    expect(web.body.data.every((q: Item) => q.source_code === 'web')).toBe(true);
    expect((await call('DELETE', `/admin/aplt/quotations/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', `/admin/aplt/quotations/${created.body.id}`)).status).toBe(404);
  });

  it('store automation routes change only open quotations and audit every write', async () => {
    const q = await call(
      'POST',
      '/store/aplt/quotations',
      { customer_email: 'lead@example.com', title: 'Van n8n', lines: [line(5, '3.00')] },
      null,
    );
    expect(q.status).toBe(201);
    expect(q.body.source_code).toBe('agent');
    const put = await call(
      'PUT',
      '/store/aplt/quotations',
      { id: q.body.id, title: 'Aangepast', status: 'accepted' },
      null,
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Aangepast', status: 'open' });
    expect(put.body).not.toHaveProperty('internal_notes');
    const added = await call(
      'POST',
      '/store/aplt/quotations/lines',
      { quotation_id: q.body.id, ...line(2, '7.50') },
      null,
    );
    expect(added.status).toBe(201);
    const changed = await call(
      'PUT',
      '/store/aplt/quotations/lines',
      { id: added.body.id, quantity: 4 },
      null,
    );
    expect(changed.body.line_total).toBe('30.00');
    expect(
      (await call('GET', `/store/aplt/quotations/lines?quotation_id=${q.body.id}`, undefined, null)).body
        .count,
    ).toBe(2);
    const del = await call(
      'DELETE',
      `/store/aplt/quotations/lines?id=${q.body.lines[0].id}`,
      undefined,
      null,
    );
    expect(del.status).toBe(204);
    const now = (await call('GET', `/store/aplt/quotations?id=${q.body.id}`, undefined, null)).body;
    expect(now).toMatchObject({ subtotal: '30.00' });
    await call('POST', '/admin/aplt/quotations/reject', { id: q.body.id, reason: 'te duur' });
    expect(
      (
        await call(
          'POST',
          '/store/aplt/quotations/lines',
          { quotation_id: q.body.id, ...line(1, '1.00') },
          null,
        )
      ).status,
    ).toBe(409);
    const db = tenantDbs(fleet, 'acme').aplt;
    const audit = await db
      .selectFrom('aplt_audit_log')
      .select(['action', 'actor_type'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'quotation.create',
      'quotation.update',
      'quotation_line.create',
      'quotation_line.update',
      'quotation_line.delete',
    ]);
    expect(audit.every((a) => a.actor_type === 'automation')).toBe(true);
  });

  it("customer routes show and change only the caller's quotations and invoices", async () => {
    const commerce = tenantDbs(fleet, 'acme').commerce;
    await commerce
      .insertInto('customer')
      .values([
        { id: 'cus_bakker', email: 'Inkoop@Bakker.nl', has_account: true },
        { id: 'cus_other', email: 'x@other.nl', has_account: true },
      ])
      .execute();
    const mine = (
      await call('POST', '/admin/aplt/quotations', { customer_id: cat.customerNl, lines: [line(1, '20.00')] })
    ).body;
    const byMail = (
      await call('POST', '/admin/aplt/quotations', {
        customer_email: 'inkoop@bakker.nl',
        lines: [line(1, '30.00')],
      })
    ).body;
    const foreign = (
      await call('POST', '/admin/aplt/quotations', { customer_id: cat.customerDe, lines: [line(1, '40.00')] })
    ).body;
    const ct = await customerToken('acme', 'cus_bakker');
    expect((await call('GET', '/store/aplt/quotes', undefined, token)).status).toBe(401);
    const list = await call('GET', '/store/aplt/quotes?status=open', undefined, ct);
    const ids = list.body.data.map((q: Item) => q.id);
    expect(ids).toContain(mine.id);
    expect(ids).toContain(byMail.id);
    expect(ids).not.toContain(foreign.id);
    expect((await call('POST', `/store/aplt/quotes/${foreign.id}/accept`, undefined, ct)).status).toBe(404);
    const acc = await call('POST', `/store/aplt/quotes/${mine.id}/accept`, undefined, ct);
    expect(acc.status).toBe(200);
    expect(acc.body.order_number).toMatch(/^O-/);
    expect((await call('POST', `/store/aplt/quotes/${byMail.id}/reject`, {}, ct)).status).toBe(400);
    const rej = await call(
      'POST',
      `/store/aplt/quotes/${byMail.id}/reject`,
      { reason: 'Andere leverancier' },
      ct,
    );
    expect(rej.body).toMatchObject({ status: 'rejected', rejection_reason: 'Andere leverancier' });
    const stale = (
      await call('POST', '/admin/aplt/quotations', {
        customer_id: cat.customerNl,
        quotation_date: '2025-01-01',
        lines: [line(1, '9.00')],
      })
    ).body;
    expect(stale.valid_until).toBe('2025-01-31');
    const late = await call('POST', `/store/aplt/quotes/${stale.id}/accept`, undefined, ct);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ type: 'conflict', valid_until: '2025-01-31' });
    const invoices = await call('GET', '/store/aplt/invoices?status=paid', undefined, ct);
    expect(invoices.status).toBe(200);
    expect(
      invoices.body.data.every(
        (i: Item) => String(i.customer_id) === String(cat.customerNl) && i.status === 'paid',
      ),
    ).toBe(true);
    expect(invoices.body.data[0].lines.length).toBeGreaterThan(0);
    const other = await call(
      'GET',
      '/store/aplt/invoices',
      undefined,
      await customerToken('acme', 'cus_other'),
    );
    expect(other.body.data).toEqual([]);
  });

  it('invoices an order in parts, refuses more than ordered and lists overdue invoices', async () => {
    const o = (
      await call('POST', '/admin/aplt/orders', { customer_id: cat.customerNl, lines: [line(10, '80.00')] })
    ).body;
    expect(o).toMatchObject({ shipping_cost: '0.00', subtotal: '800.00' });
    const lineId = o.lines[0].id;
    const f1 = await call('POST', '/admin/aplt/invoices', {
      order_id: o.id,
      order_lines: [{ order_line_id: lineId, quantity: 4 }],
      issue_date: '2026-01-01',
      payment_term_days: 14,
    });
    expect(f1.body).toMatchObject({ subtotal: '320.00', due_date: '2026-01-15' });
    expect(
      (
        await call('POST', '/admin/aplt/invoices', {
          order_id: o.id,
          order_lines: [{ order_line_id: lineId, quantity: 7 }],
        })
      ).status,
    ).toBe(409);
    const f2 = await call('POST', '/admin/aplt/invoices', { order_id: o.id });
    expect(f2.body.subtotal).toBe('480.00');
    const overdue = (await call('GET', '/admin/aplt/invoices?status=overdue')).body.data.map(
      (i: Item) => i.id,
    );
    expect(overdue).toContain(f1.body.id);
    expect(overdue).not.toContain(f2.body.id);
    expect((await call('DELETE', `/admin/aplt/orders/${o.id}`)).status).toBe(409);
    const small = (
      await call('POST', '/admin/aplt/orders', { customer_id: cat.customerNl, lines: [line(1, '5.00')] })
    ).body;
    expect(small.lines.map((l: Item) => l.line_type)).toEqual(['product', 'shipping']);
    expect(small.shipping_cost).toBe('12.99');
    expect((await call('DELETE', `/admin/aplt/orders/${small.id}`)).status).toBe(204);
  });

  it('refuses a second conversion even when two arrive at once', async () => {
    const q = (
      await call('POST', '/admin/aplt/quotations', { customer_id: cat.customerNl, lines: [line(1, '10.00')] })
    ).body;
    const both = await Promise.all([
      call('POST', '/admin/aplt/quotations/confirm', { id: q.id }),
      call('POST', '/admin/aplt/quotations/confirm', { id: q.id }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('licensing and the expiry job', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: App;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'lite' }]);
    redis = await createTestRedis();
    const licenses = staticFeatureSource({
      lite: featureKeys.filter((f) => f !== 'invoices' && f !== 'quotation_source_filter'),
    });
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...licenses, start: async () => {}, close: async () => {} },
      },
      loadConfig(testEnv(fleet.env)),
    );
  });

  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('answers 403 Feature not available for an unlicensed feature and for the source filter add-on', async () => {
    const headers = { ...viaProxy('lite.localhost'), authorization: `Bearer ${await adminToken('lite')}` };
    const inv = await app.inject({ method: 'GET', url: '/admin/aplt/invoices', headers });
    expect(inv.statusCode).toBe(403);
    expect(inv.json()).toMatchObject({ message: 'Feature not available', feature: 'invoices' });
    const filtered = await app.inject({
      method: 'GET',
      url: '/admin/aplt/quotations?source_code=web',
      headers,
    });
    expect(filtered.statusCode).toBe(403);
    expect(filtered.json()).toMatchObject({
      message: 'Feature not available',
      feature: 'quotation_source_filter',
    });
    expect((await app.inject({ method: 'GET', url: '/admin/aplt/quotations', headers })).statusCode).toBe(
      200,
    );
  });

  it('expires open quotations past their validity through the queue', async () => {
    const db = tenantDbs(fleet, 'lite').aplt;
    await db
      .insertInto('aplt_quotation_headers')
      .values([
        { quotation_number: 'Q-2025-0001', quotation_date: '2025-01-01', valid_until: '2025-01-31' },
        { quotation_number: 'Q-2025-0002', quotation_date: '2025-01-01', valid_until: '2099-01-31' },
      ])
      .execute();
    const connection = createRedis(redis.url, { forWorker: true });
    const queues = new QueueClient(connection, redis.prefix);
    const worker = startDocumentsWorker(
      { registry: fleet.registry, databases: fleet.databases },
      { connection, prefix: redis.prefix },
    );
    const events = new QueueEvents('documents', {
      connection: createRedis(redis.url, { forWorker: true }),
      prefix: redis.prefix,
    });
    try {
      await events.waitUntilReady();
      const id = await queues.enqueue('documents', 'quotations.expire', { tenantId: 'lite' });
      const job = await queues.queue('documents').getJob(id);
      const result = await job!.waitUntilFinished(events, 30_000);
      expect(result).toEqual({ expired: { lite: ['Q-2025-0001'] } });
      const rows = await db
        .selectFrom('aplt_quotation_headers')
        .select(['quotation_number', 'status'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { quotation_number: 'Q-2025-0001', status: 'expired' },
        { quotation_number: 'Q-2025-0002', status: 'open' },
      ]);
    } finally {
      await worker.close();
      await events.close();
      await queues.close();
      connection.disconnect();
    }
  });
});
