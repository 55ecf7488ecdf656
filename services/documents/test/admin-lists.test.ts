import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createOrderBody, orderStatusBody, orderTransitions } from '../src/orders/order.schemas';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * What the admin panel's sales pages read: server-paged lists whose `count` is every match (not
 * the page), search and the derived invoice status in the query, the order's allowed moves, and
 * the links both ways between invoices, payments, credit notes and the order a quotation became.
 */
describe('documents: the admin lists and details the panel reads', () => {
  let fleet: TestFleet;
  let app: App;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;

  const call = async (method: string, url: string, payload?: object) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(payload ? { payload } : {}),
      headers: { ...viaProxy('acme.localhost'), authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const line = (quantity: number, unit_price: string, description = 'Item') => ({
    line_type: 'product',
    description,
    quantity,
    unit_price,
    setup_costs: [],
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

  it('pages quotations on the server: count is every match, search and filters in the query', async () => {
    for (let i = 1; i <= 7; i++) {
      const q = await call('POST', '/admin/aplt/quotations', {
        customer_id: cat.customerNl,
        title: i % 2 ? `Pennen ${i}` : `Tassen ${i}`,
        reference: i === 7 ? 'PO 100%_off' : undefined,
        lines: [line(10, '2.00')],
      });
      expect(q.status, JSON.stringify(q.body)).toBe(201);
    }
    const page = await call('GET', '/admin/aplt/quotations?limit=3&offset=3');
    expect(page.body).toMatchObject({ count: 7, limit: 3, offset: 3 });
    expect(page.body.data.map((q: Item) => q.title)).toEqual(['Tassen 4', 'Pennen 3', 'Tassen 2']);
    expect(page.body.data[0].lines).toHaveLength(1);
    const pens = await call('GET', '/admin/aplt/quotations?q=pennen&limit=2');
    expect(pens.body).toMatchObject({ count: 4, limit: 2 });
    expect(pens.body.data).toHaveLength(2);
    // % and _ are taken literally.
    expect((await call('GET', '/admin/aplt/quotations?q=100%25_off')).body.count).toBe(1);
    expect((await call('GET', '/admin/aplt/quotations?q=%25')).body.count).toBe(1);
    expect((await call('GET', '/admin/aplt/quotations?status=accepted')).body).toMatchObject({
      count: 0,
      data: [],
    });
    expect((await call('GET', '/admin/aplt/quotations?limit=0')).status).toBe(400);
  });

  it('a quotation shows the order it became; the order says which moves it allows', async () => {
    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      lines: [line(5, '10.00')],
    });
    expect((await call('GET', `/admin/aplt/quotations/${q.body.id}`)).body.order).toBeNull();
    const o = await call('POST', '/admin/aplt/quotations/confirm', { id: q.body.id });
    expect(o.status).toBe(201);
    expect(o.body.allowed_transitions).toEqual(['confirmed', 'cancelled']);
    expect((await call('GET', `/admin/aplt/quotations/${q.body.id}`)).body.order).toEqual({
      id: o.body.id,
      order_number: o.body.order_number,
    });
    const confirmed = await call('POST', '/admin/aplt/orders/status', { id: o.body.id, status: 'confirmed' });
    expect(confirmed.body.allowed_transitions).toEqual(['shipped', 'cancelled']);
    // The move the panel hides is refused by the API too, naming the allowed ones.
    const skip = await call('POST', '/admin/aplt/orders/status', { id: o.body.id, status: 'delivered' });
    expect(skip.status).toBe(409);
    expect(skip.body.allowed).toEqual(confirmed.body.allowed_transitions);
    // A tracking link must be an http(s) address (the panel renders it as a link).
    const js = await call('PUT', `/admin/aplt/orders/${o.body.id}`, { tracking_url: 'javascript:alert(1)' });
    expect(js.status).toBe(400);
    const ok = await call('PUT', `/admin/aplt/orders/${o.body.id}`, {
      tracking_url: 'https://track.example/1',
      expected_delivery_date: '2026-05-01',
    });
    expect(ok.body).toMatchObject({
      tracking_url: 'https://track.example/1',
      expected_delivery_date: '2026-05-01',
    });

    const list = await call('GET', `/admin/aplt/orders?q=${encodeURIComponent(o.body.order_number)}`);
    expect(list.body).toMatchObject({ count: 1, limit: 50, offset: 0 });
    expect(list.body.data[0]).toMatchObject({ id: o.body.id, allowed_transitions: ['shipped', 'cancelled'] });
    expect((await call('GET', '/admin/aplt/orders?status=confirmed')).body.count).toBe(1);
    expect((await call('GET', '/admin/aplt/orders?q=bakker')).body.count).toBe(1);
  });

  it('filters invoices by derived status in the query, and links payments and credit notes both ways', async () => {
    const invoice = (issue_date: string, amount: string) =>
      call('POST', '/admin/aplt/invoices', {
        customer_id: cat.customerNl,
        issue_date,
        payment_term_days: 14,
        lines: [line(1, amount, `Invoice of ${issue_date}`)],
      });
    const overdue = (await invoice('2020-01-01', '100.00')).body;
    const open = (await invoice('2999-01-01', '50.00')).body;
    const credited = (await invoice('2020-02-01', '30.00')).body;
    const paid = (await invoice('2020-03-01', '20.00')).body;
    expect(overdue.status).toBe('overdue');

    // A full credit without payments leaves `cancelled`; a payment in full leaves `paid`.
    const cn = await call('POST', '/admin/aplt/credit-notes', { invoice_id: credited.id, reason: 'retour' });
    expect(cn.status).toBe(201);
    const pay = await call('POST', '/admin/aplt/payments', {
      customer_id: cat.customerNl,
      amount: '60.00',
      reference: 'Bank 42',
      allocations: [
        { invoice_id: paid.id, amount: paid.total },
        { invoice_id: overdue.id, amount: '10.00' },
      ],
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);

    const ids = async (query: string) =>
      (await call('GET', `/admin/aplt/invoices?${query}`)).body.data.map((i: Item) => i.id);
    expect(await ids('status=overdue')).toEqual([overdue.id]);
    expect(await ids('status=open')).toEqual([open.id]);
    expect(await ids('status=paid')).toEqual([paid.id]);
    expect(await ids('status=cancelled')).toEqual([credited.id]);
    expect(await ids('status=outstanding')).toEqual([open.id, overdue.id]);
    const page = await call('GET', '/admin/aplt/invoices?status=overdue&limit=1');
    expect(page.body).toMatchObject({ count: 1, limit: 1, offset: 0 });
    expect(page.body.data[0]).toMatchObject({ status: 'overdue', balance: '111.00' });
    expect(
      (await call('GET', `/admin/aplt/invoices?q=${encodeURIComponent(paid.invoice_number)}`)).body.count,
    ).toBe(1);

    // The invoice shows the payment that reached it, the payment the invoices it reached.
    const detail = (await call('GET', `/admin/aplt/invoices/${overdue.id}`)).body;
    expect(detail.allocations).toEqual([
      expect.objectContaining({
        payment_id: pay.body.id,
        payment_number: pay.body.payment_number,
        amount: '10.00',
      }),
    ]);
    expect(detail.credit_notes).toEqual([]);
    const creditedDetail = (await call('GET', `/admin/aplt/invoices/${credited.id}`)).body;
    expect(creditedDetail.credit_notes).toEqual([
      expect.objectContaining({
        id: cn.body.id,
        invoice_number: cn.body.invoice_number,
        credit_reason: 'retour',
      }),
    ]);
    const payment = (await call('GET', `/admin/aplt/payments/${pay.body.id}`)).body;
    expect(payment.customer_name).toBe('Bakker BV');
    expect(payment.allocations.map((a: Item) => a.invoice_number).sort()).toEqual(
      [overdue.invoice_number, paid.invoice_number].sort(),
    );

    // Credit notes and payments page and search on the server too.
    const notes = await call('GET', `/admin/aplt/credit-notes?invoice_id=${credited.id}`);
    expect(notes.body).toMatchObject({ count: 1 });
    expect(Number(notes.body.data[0].credited_invoice_id)).toBe(credited.id);
    expect((await call('GET', `/admin/aplt/credit-notes?invoice_id=${overdue.id}`)).body.count).toBe(0);
    const payments = await call('GET', '/admin/aplt/payments?q=bank%2042&limit=1');
    expect(payments.body).toMatchObject({ count: 1, limit: 1 });
    expect(payments.body.data[0]).toMatchObject({ id: pay.body.id, customer_name: 'Bakker BV' });
    expect((await call('GET', '/admin/aplt/payments?q=bakker')).body.count).toBe(1);
    expect((await call('GET', '/admin/aplt/payments?q=nobody')).body.count).toBe(0);
  });

  it('the shared schemas hold the same rules the routes apply', () => {
    expect(
      orderStatusBody.safeParse({ id: 1, status: 'shipped', tracking_url: 'ftp://x.example' }).success,
    ).toBe(false);
    expect(createOrderBody.safeParse({ lines: [] }).success).toBe(false);
    expect(orderTransitions.delivered).toEqual([]);
  });
});
