import { createHash } from 'node:crypto';
import { sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { addDays, today } from '../src/shared/context';
import { customerToken, tenantDbs, testEnv } from './fixtures';
import { addCustomer, adminClient, invoicedOrder, useTempStores } from './store-fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

/** Customer orders, invoices with the persisted PDF, and quotations with their expiry, on real databases. */
describe('store: my orders, invoices and quotations', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let admin: ReturnType<typeof adminClient>;
  const host = 'acme.localhost';
  type Who = Awaited<ReturnType<typeof addCustomer>>;
  let jan: Who;
  let piet: Who;
  let mailOnly: Who;

  const get = (url: string, token?: string, h = host) =>
    app.inject({
      method: 'GET',
      url,
      headers: { ...viaProxy(h), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  let stores: ReturnType<typeof useTempStores> | undefined;
  beforeAll(async () => {
    stores = useTempStores('orders');
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(fleet.env)),
    );
    const dbs = {
      commerce: tenantDbs(fleet, 'acme').commerce,
      aplt: tenantDbs(fleet, 'acme').aplt,
    };
    jan = await addCustomer(dbs, 'acme', { id: 'cus_jan', email: 'jan@bakker.test' });
    piet = await addCustomer(dbs, 'acme', { id: 'cus_piet', email: 'piet@visser.test' });
    // A storefront account whose orders are addressed to its e-mail only (no aplt customer).
    mailOnly = await addCustomer(dbs, 'acme', { id: 'cus_mail', email: 'mail@only.test', aplt: false });
    admin = adminClient(app, host, 'acme');
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    await stores?.remove();
  });

  it('lists my orders 20 per page, newest first, with status, tracking link and expected delivery', async () => {
    const made: number[] = [];
    for (let i = 0; i < 23; i++) {
      const q = await admin('POST', '/admin/aplt/quotations', {
        customer_id: jan.apltId,
        lines: [{ line_type: 'product', description: `Pen ${i}`, quantity: 10, unit_price: '1.00' }],
      });
      made.push(Number((await admin('POST', '/admin/aplt/quotations/confirm', { id: q.id })).id));
    }
    const pietsQ = await admin('POST', '/admin/aplt/quotations', {
      customer_id: piet.apltId,
      lines: [{ line_type: 'product', description: 'Mug', quantity: 1, unit_price: '5.00' }],
    });
    const pietsOrder = Number((await admin('POST', '/admin/aplt/quotations/confirm', { id: pietsQ.id })).id);
    const shipped = made[22]!;
    for (const status of ['confirmed', 'shipped']) {
      await admin('POST', '/admin/aplt/orders/status', {
        id: shipped,
        status,
        ...(status === 'shipped'
          ? { tracking_url: 'https://track.example/abc', expected_delivery_date: '2026-03-02' }
          : {}),
      });
    }

    const page1 = await get('/store/aplt/orders', jan.token);
    expect(page1.statusCode).toBe(200);
    const p1 = page1.json();
    expect(p1).toMatchObject({ count: 23, limit: 20, offset: 0 });
    expect(p1.data).toHaveLength(20);
    expect(p1.data.map((o: Item) => o.id)).toEqual([...made].reverse().slice(0, 20));
    expect(p1.data[0]).toMatchObject({
      id: shipped,
      status: 'shipped',
      tracking_url: 'https://track.example/abc',
      expected_delivery_date: '2026-03-02',
    });
    expect(p1.data[0].lines[0]).toMatchObject({ description: 'Pen 22', quantity: 10 });
    // Staff fields never leave.
    for (const key of ['internal_notes', 'created_by', 'metadata', 'customer_id'])
      expect(p1.data[0]).not.toHaveProperty(key);
    const page2 = (await get('/store/aplt/orders?offset=20', jan.token)).json();
    expect(page2.data.map((o: Item) => o.id)).toEqual(made.slice(0, 3).reverse());
    expect((await get('/store/aplt/orders?limit=21', jan.token)).statusCode).toBe(400);
    const onlyShipped = (await get('/store/aplt/orders?status=shipped', jan.token)).json();
    expect(onlyShipped).toMatchObject({ count: 1, data: [{ id: shipped }] });
    expect((await get('/store/aplt/orders?status=lost', jan.token)).statusCode).toBe(400);

    // Detail: mine, or 404 for Piet's and for one that does not exist; never 403.
    expect((await get(`/store/aplt/orders/${shipped}`, jan.token)).json()).toMatchObject({ id: shipped });
    const foreign = await get(`/store/aplt/orders/${pietsOrder}`, jan.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ type: 'not_found', message: `Order ${pietsOrder} not found` });
    expect((await get('/store/aplt/orders/999999', jan.token)).json()).toEqual({
      type: 'not_found',
      message: 'Order 999999 not found',
    });
    for (const bad of ['abc', '0', '99999999999999999999', '1.5']) {
      expect((await get(`/store/aplt/orders/${bad}`, jan.token)).statusCode, bad).toBe(400);
    }
    expect((await get('/store/aplt/orders', piet.token)).json()).toMatchObject({
      count: 1,
      data: [{ id: pietsOrder }],
    });
    // Without a customer token: 401; an admin token is not a customer token.
    expect((await get('/store/aplt/orders')).statusCode).toBe(401);
  });

  it('shows orders addressed to my e-mail, and only a web address as tracking link', async () => {
    const q = await admin('POST', '/admin/aplt/quotations', {
      customer_email: 'MAIL@only.test',
      lines: [{ line_type: 'product', description: 'Cap', quantity: 3, unit_price: '4.00' }],
    });
    const o = await admin('POST', '/admin/aplt/quotations/confirm', { id: q.id });
    await sql`update aplt_order_headers set metadata = jsonb_build_object('tracking_url', 'javascript:alert(1)') where id = ${o.id}`.execute(
      tenantDbs(fleet, 'acme').aplt,
    );
    const mine = (await get('/store/aplt/orders', mailOnly.token)).json();
    expect(mine).toMatchObject({ count: 1, data: [{ id: Number(o.id), tracking_url: null }] });
    expect((await get(`/store/aplt/orders/${o.id}`, jan.token)).statusCode).toBe(404);
    // No aplt customer, so no invoices (they always name one).
    expect((await get('/store/aplt/invoices', mailOnly.token)).json()).toMatchObject({ count: 0, data: [] });
  });

  it('lists my invoices and credit notes by status, one at a time by id, and 404 for anyone else', async () => {
    const mine = await invoicedOrder(admin, jan.apltId!, [5, 2]);
    const other = await invoicedOrder(admin, piet.apltId!, [1]);
    const list = (await get('/store/aplt/invoices', jan.token)).json();
    expect(list.data.map((i: Item) => i.id)).toContain(mine.invoiceId);
    expect(list.data.map((i: Item) => i.id)).not.toContain(other.invoiceId);
    const inv = list.data.find((i: Item) => i.id === mine.invoiceId);
    expect(inv).toMatchObject({
      document_type: 'invoice',
      customer_id: jan.apltId,
      pdf_url: `/store/aplt/invoices/pdf?id=${mine.invoiceId}`,
    });
    expect(inv.status).toBe('open');
    for (const key of ['pdf_path', 'pdf_sha256', 'created_by', 'metadata'])
      expect(inv).not.toHaveProperty(key);
    const byStatus = (await get(`/store/aplt/invoices?status=${inv.status}`, jan.token)).json();
    expect(byStatus.data.every((i: Item) => i.status === inv.status)).toBe(true);
    expect((await get('/store/aplt/invoices?status=unknown', jan.token)).statusCode).toBe(400);

    expect((await get(`/store/aplt/invoices/${mine.invoiceId}`, jan.token)).json()).toMatchObject({
      id: mine.invoiceId,
      lines: expect.arrayContaining([expect.objectContaining({ quantity: 5 })]),
    });
    expect((await get(`/store/aplt/invoices/${other.invoiceId}`, jan.token)).statusCode).toBe(404);
    expect((await get(`/store/aplt/invoices/pdf?id=${other.invoiceId}`, jan.token)).statusCode).toBe(404);
  });

  it('serves the same PDF bytes as the admin download, whoever asks first, and persists it once', async () => {
    const a = await invoicedOrder(admin, jan.apltId!, [3]);
    const b = await invoicedOrder(admin, jan.apltId!, [4]);
    const aplt = tenantDbs(fleet, 'acme').aplt;

    // Admin first, then the customer.
    const adminPdf = (await admin('GET', `/admin/aplt/invoices/pdf?id=${a.invoiceId}`)) as Buffer;
    const store = await get(`/store/aplt/invoices/pdf?id=${a.invoiceId}`, jan.token);
    expect(store.statusCode).toBe(200);
    expect(store.headers['content-type']).toBe('application/pdf');
    expect(store.headers['content-disposition']).toMatch(
      /^attachment; filename="factuur-F-\d{4}-\d{4}\.pdf"$/,
    );
    expect(store.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(store.rawPayload.equals(adminPdf)).toBe(true);

    // The customer first: the customer's request persists it, the admin then gets those bytes.
    const first = await get(`/store/aplt/invoices/pdf?id=${b.invoiceId}`, jan.token);
    const row = await aplt
      .selectFrom('aplt_invoice_headers')
      .select(['pdf_path', 'pdf_sha256'])
      .where('id', '=', b.invoiceId)
      .executeTakeFirstOrThrow();
    expect(row.pdf_path).toBeTruthy();
    expect(row.pdf_sha256).toBe(createHash('sha256').update(first.rawPayload).digest('hex'));
    const after = (await admin('GET', `/admin/aplt/invoices/pdf?id=${b.invoiceId}`)) as Buffer;
    expect(after.equals(first.rawPayload)).toBe(true);

    // Someone else's invoice, a proforma and a missing one: 404 alike; bad ids 400.
    const proforma = await admin('POST', '/admin/aplt/invoices', {
      customer_id: jan.apltId,
      document_type: 'proforma',
      lines: [{ line_type: 'product', description: 'Sample', quantity: 1, unit_price: '1.00' }],
    });
    expect((await get(`/store/aplt/invoices/pdf?id=${proforma.id}`, jan.token)).statusCode).toBe(404);
    expect((await get(`/store/aplt/invoices/${proforma.id}`, jan.token)).statusCode).toBe(404);
    expect((await get(`/store/aplt/invoices/pdf?id=${a.invoiceId}`, piet.token)).statusCode).toBe(404);
    expect((await get('/store/aplt/invoices/pdf?id=999999', jan.token)).statusCode).toBe(404);
    expect((await get('/store/aplt/invoices/pdf?id=x', jan.token)).statusCode).toBe(400);
    expect((await get('/store/aplt/invoices/pdf', jan.token)).statusCode).toBe(400);
  });

  it('marks open quotations that expire within 3 days for the banner', async () => {
    const t = today();
    const make = async (validUntil: string) =>
      Number(
        (
          await admin('POST', '/admin/aplt/quotations', {
            customer_id: jan.apltId,
            valid_until: validUntil,
            lines: [{ line_type: 'product', description: 'Tas', quantity: 1, unit_price: '2.00' }],
          })
        ).id,
      );
    const soon = await make(addDays(t, 2));
    const lastDay = await make(t);
    const later = await make(addDays(t, 10));
    const rejected = await make(addDays(t, 1));
    const reject = await app.inject({
      method: 'POST',
      url: `/store/aplt/quotes/${rejected}/reject`,
      payload: { reason: 'Te duur' },
      headers: { ...viaProxy(host), authorization: `Bearer ${jan.token}` },
    });
    expect(reject.statusCode).toBe(200);
    const list = (await get('/store/aplt/quotes', jan.token)).json();
    const byId = new Map(list.data.map((q: Item) => [q.id, q]));
    expect(byId.get(soon)).toMatchObject({
      valid_until: addDays(t, 2),
      expires_at: `${addDays(t, 3)}T00:00:00.000Z`,
      expires_in_days: 2,
      expiring_soon: true,
    });
    expect(byId.get(lastDay)).toMatchObject({ expires_in_days: 0, expiring_soon: true });
    expect(byId.get(later)).toMatchObject({ expires_in_days: 10, expiring_soon: false });
    expect(byId.get(rejected)).toMatchObject({
      status: 'rejected',
      expiring_soon: false,
      rejection_reason: 'Te duur',
    });
    for (const q of list.data) {
      expect(q).not.toHaveProperty('internal_notes');
      expect(q).not.toHaveProperty('created_by');
    }
    expect((await get(`/store/aplt/quotes/${soon}`, jan.token)).json()).toMatchObject({
      id: soon,
      expiring_soon: true,
    });
    expect((await get(`/store/aplt/quotes/${soon}`, piet.token)).statusCode).toBe(404);
    expect((await get('/store/aplt/quotes/99999999999999999999', jan.token)).statusCode).toBe(400);
  });

  it("refuses another tenant's token and shows another tenant's customer only its own tenant's records", async () => {
    // Same customer id in globex: its token is signed with globex's key and means nothing on acme.
    const globexDbs = {
      commerce: tenantDbs(fleet, 'globex').commerce,
      aplt: tenantDbs(fleet, 'globex').aplt,
    };
    const twin = await addCustomer(globexDbs, 'globex', { id: 'cus_jan', email: 'jan@bakker.test' });
    expect((await get('/store/aplt/orders', twin.token)).statusCode).toBe(401);
    expect((await get('/store/aplt/orders', twin.token, 'globex.localhost')).json()).toMatchObject({
      count: 0,
    });
    expect((await get('/store/aplt/invoices', twin.token, 'globex.localhost')).json()).toMatchObject({
      count: 0,
    });
    // An acme token on the globex host: refused too.
    expect(
      (await get('/store/aplt/orders', await customerToken('acme', 'cus_jan'), 'globex.localhost'))
        .statusCode,
    ).toBe(401);
  });
});
