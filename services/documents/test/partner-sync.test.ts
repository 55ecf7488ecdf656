import { allFeaturesClient } from '@aplt/licensing';
import { QueueClient, type WorkerHandle } from '@aplt/queue';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  createTestRedis,
  type PartnerFake,
  startPartnerFake,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openCredential, sealCredential } from '../src/partner/credential-box';
import { loadPartnerConfig } from '../src/partner/partner.config';
import { schedulePartnerSweep, startPartnerWorker } from '../src/partner/partner.worker';
import { pollOrderStatus, sendOrder } from '../src/partner/partner-sync.service';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';
import { addCustomer } from './store-fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

/*
 * Partner fulfilment sync (issue #16) against a real partner API on loopback that fails in each
 * of the ways spec 1 names, with the real worker on a private Redis prefix and the admin routes
 * through the real proxy with forward auth. Retry waits and the call time limit are shortened by
 * configuration (their defaults are checked by reading the configuration, not by waiting).
 */
describe('partner fulfilment sync', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let partner: PartnerFake;
  let proxy: TestProxy;
  let worker: WorkerHandle;
  let queues: QueueClient;
  let tokens: Record<string, string>;
  let cat: Awaited<ReturnType<typeof seedCatalog>> & { partnerProductId: number };
  const partnerConfig = loadPartnerConfig({
    PARTNER_TIMEOUT_MS: '300',
    PARTNER_RETRY_DELAYS_MS: '10,20,40',
    PARTNER_SEND_LEASE_MS: '60000',
  });
  const deps = () => ({ config: partnerConfig, masterSecret: testSecrets().JWT_SECRET });
  const db = (tenant = 'acme') => tenantDbs(fleet, tenant).aplt;

  const call = async (method: string, path: string, body?: unknown, tenant = 'acme') => {
    const res = await proxy.request(`${tenant}.localhost`, path, {
      method,
      body: body as object | undefined,
      headers: { authorization: `Bearer ${tokens[tenant]}` },
    });
    return { status: res.status, body: res.body.length ? res.json() : null };
  };

  /** Waits until the order's sync row leaves queued/sending (the worker finished with it). */
  const settled = async (orderId: number) => {
    for (let i = 0; i < 1000; i++) {
      const row = await db()
        .selectFrom('partner_order_sync')
        .selectAll()
        .where('order_id', '=', orderId)
        .executeTakeFirst();
      if (row && row.status !== 'queued' && row.status !== 'sending') return row;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`order ${orderId} never left the queue`);
  };

  /** A quotation with a partner line (supplier 03) and an own line (supplier 01), accepted by staff. */
  const confirmedOrder = async (opts: { partnerLine?: boolean } = {}) => {
    const lines = [{ product_id: cat.productId, quantity: 100 }];
    if (opts.partnerLine !== false) lines.push({ product_id: cat.partnerProductId, quantity: 250 });
    const q = await call('POST', '/admin/aplt/quotations', { customer_id: cat.customerNl, lines });
    expect(q.status).toBe(201);
    const o = await call('POST', '/admin/aplt/quotations/confirm', { id: q.body.id });
    expect(o.status).toBe(201);
    return o.body as { id: number; order_number: string };
  };

  const createsFor = (key: string) =>
    partner.requests.filter((r) => r.route === 'transactions.create' && r.headers['idempotency-key'] === key);

  beforeAll(async () => {
    [fleet, redis, partner] = await Promise.all([
      createTestFleet([{ id: 'acme' }, { id: 'globex' }]),
      createTestRedis(),
      startPartnerFake({ username: 'acme-api', password: 'pässwörd-Acme-1' }),
    ]);
    const base = await seedCatalog(db());
    await db().insertInto('aplt_suppliers').values({ code: '03', name: 'Partner supplier' }).execute();
    const p = await db()
      .insertInto('aplt_products')
      .values({
        sku: '300-01',
        supplier_code: '03',
        supplier_sku: 'PX-300',
        name_nl: 'Mok',
        retail_price_100: '3.0000',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('aplt_product_prices')
      .values({ product_id: p.id, min_quantity: 1, price: '3.5000' })
      .execute();
    cat = { ...base, partnerProductId: Number(p.id) };
    const env = testEnv({ ...fleet.env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    const appDeps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      documents: await buildApp(appDeps, loadConfig(env)),
    });
    const { createRedis } = await import('@aplt/queue');
    const connection = createRedis(redis.url, { forWorker: true });
    queues = new QueueClient(createRedis(redis.url), redis.prefix);
    worker = startPartnerWorker(fleet, deps(), { connection, prefix: redis.prefix, queues });
    tokens = { acme: await adminToken('acme'), globex: await adminToken('globex') };
  });

  afterAll(async () => {
    await worker?.close();
    await queues?.close();
    await proxy?.stop();
    await partner?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
  });

  it('keeps the spec defaults: 30 s per call, retries after 1, 2 and 4 s, three re-logins', () => {
    const d = loadPartnerConfig({});
    expect(d.PARTNER_TIMEOUT_MS).toBe(30_000);
    expect(d.PARTNER_RETRY_DELAYS_MS).toEqual([1000, 2000, 4000]);
    expect(d.PARTNER_MAX_REAUTH).toBe(3);
    expect(() => loadPartnerConfig({ PARTNER_RETRY_DELAYS_MS: '1s,2s' })).toThrow(/PARTNER_RETRY_DELAYS_MS/);
  });

  it('stores the settings with a write-only password and refuses bad ones', async () => {
    const empty = await call('GET', '/admin/aplt/parameters/partner');
    expect(empty.body).toEqual({
      enabled: false,
      base_url: null,
      username: null,
      password_set: false,
      supplier_codes: [],
    });

    const incomplete = await call('PUT', '/admin/aplt/parameters/partner', {
      enabled: true,
      base_url: partner.url,
    });
    expect(incomplete.status).toBe(422);
    expect(incomplete.body).toMatchObject({
      type: 'unprocessable',
      missing: ['username', 'password', 'supplier_codes'],
    });

    for (const bad of [
      { base_url: 'ftp://partner.example' },
      { base_url: 'https://user:pw@partner.example' },
      { supplier_codes: ['3'] },
      { password: 'a\u0000b' },
      { unknown: true },
      { enabled: 'yes' },
    ]) {
      const r = await call('PUT', '/admin/aplt/parameters/partner', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.type).toBe('invalid_data');
    }

    const saved = await call('PUT', '/admin/aplt/parameters/partner', {
      enabled: true,
      base_url: partner.url,
      username: 'acme-api',
      password: 'pässwörd-Acme-1',
      supplier_codes: ['03'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      enabled: true,
      base_url: partner.url,
      username: 'acme-api',
      password_set: true,
      supplier_codes: ['03'],
    });
    // Neither route that reads settings shows the password, and the database holds it sealed.
    const read = await call('GET', '/admin/aplt/parameters/partner');
    expect(JSON.stringify(read.body)).not.toContain('pässwörd');
    const params = await call('GET', '/admin/aplt/parameters');
    expect(params.status).toBe(200);
    expect(JSON.stringify(params.body)).not.toContain('pässwörd');
    const secretRow = params.body.other_settings.find((s: Item) => s.key === 'partner_password');
    expect(secretRow).toMatchObject({ value_type: 'secret', value: null });
    const stored = await db()
      .selectFrom('aplt_settings')
      .select('value')
      .where('key', '=', 'partner_password')
      .executeTakeFirstOrThrow();
    expect(stored.value).not.toContain('pässwörd');
    expect(openCredential(testSecrets().JWT_SECRET, 'acme', stored.value!)).toBe('pässwörd-Acme-1');
    // Sealed for acme: the same value does not open for another tenant.
    expect(openCredential(testSecrets().JWT_SECRET, 'globex', stored.value!)).toBeNull();
    expect(
      openCredential(testSecrets().JWT_SECRET, 'acme', sealCredential('x'.repeat(40), 'acme', 'p')),
    ).toBeNull();
    const audit = await db()
      .selectFrom('aplt_audit_log')
      .select('changes')
      .where('action', '=', 'partner.settings.update')
      .execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain('pässwörd');
    expect(JSON.stringify(audit)).toContain('changed');
    // Another tenant's settings are its own.
    expect((await call('GET', '/admin/aplt/parameters/partner', undefined, 'globex')).body.enabled).toBe(
      false,
    );
  });

  it('sends a confirmed order once: login, organisation, order with its key; only partner lines', async () => {
    const order = await confirmedOrder();
    const row = await settled(order.id);
    expect(row).toMatchObject({ status: 'pushed', attempts: 1, error_message: null, synced_via: 'worker' });
    expect(row.partner_process_id).toMatch(/^PR-/);
    expect(row.partner_document_id).toMatch(/^DOC-/);
    expect(row.partner_organisation_id).toMatch(/^ORG-/);
    const creates = createsFor(row.idempotency_key!);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.headers.authorization).toMatch(/^Bearer ey/);
    expect(creates[0]!.body).toMatchObject({
      reference: order.order_number,
      organisation_id: row.partner_organisation_id,
      lines: [{ sku: 'PX-300', our_sku: '300-01', supplier_code: '03', quantity: 250 }],
    });
    expect((creates[0]!.body as { lines: unknown[] }).lines).toHaveLength(1);
    const login = partner.requests.find((r) => r.route === 'login')!;
    expect(login.body).toEqual({ username: 'acme-api', password: 'pässwörd-Acme-1' });

    // The admin sees the state, and the order in the list by partner state.
    const state = await call('GET', `/admin/aplt/orders/${order.id}/partner`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      order_id: order.id,
      order_number: order.order_number,
      partner_lines: 1,
      sync: { status: 'pushed', partner_process_id: row.partner_process_id, attempts: 1 },
    });
    const list = await call('GET', '/admin/aplt/orders/partner?status=pushed');
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: Item) => r.order_id)).toContain(order.id);
    expect((await call('GET', '/admin/aplt/orders/partner?status=bogus')).status).toBe(400);

    // A second customer order reuses the organisation the partner already has.
    const second = await confirmedOrder();
    const row2 = await settled(second.id);
    expect(row2.partner_organisation_id).toBe(row.partner_organisation_id);
    expect(partner.organisations.filter((o) => o.id === row.partner_organisation_id)).toHaveLength(1);
  });

  it('leaves an order without partner lines alone', async () => {
    const order = await confirmedOrder({ partnerLine: false });
    const state = await call('GET', `/admin/aplt/orders/${order.id}/partner`);
    expect(state.body).toMatchObject({ partner_lines: 0, sync: null });
    const resend = await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, {});
    expect(resend.status).toBe(422);
  });

  it('logs in again after a 401 and sends', async () => {
    partner.failNext('transactions.create', { status: 401 });
    const logins = partner.count('login');
    const row = await settled((await confirmedOrder()).id);
    expect(row.status).toBe('pushed');
    expect(partner.count('login') - logins).toBe(2);
    expect(partner.transactions.filter((t) => t.idempotency_key === row.idempotency_key)).toHaveLength(1);
  });

  it('gives up after three re-logins when the partner keeps answering 401, and records it', async () => {
    partner.failAlways('transactions.create', { status: 401 });
    const logins = partner.count('login');
    try {
      const row = await settled((await confirmedOrder()).id);
      expect(row).toMatchObject({ status: 'failed', last_http_status: 401 });
      expect(row.error_message).toMatch(/401 after 3 re-logins/);
      expect(partner.count('login') - logins).toBe(4);
      expect(createsFor(row.idempotency_key!)).toHaveLength(4);
    } finally {
      partner.recover();
    }
  });

  it('retries a 5xx after the configured waits and sends on the third try', async () => {
    partner.failNext('transactions.create', { status: 500 }, { status: 503 });
    const row = await settled((await confirmedOrder()).id);
    expect(row.status).toBe('pushed');
    expect(createsFor(row.idempotency_key!)).toHaveLength(3);
    expect(partner.transactions.filter((t) => t.idempotency_key === row.idempotency_key)).toHaveLength(1);
  });

  it('fails after 1 + 3 tries on a partner that keeps failing, and a resend then sends it', async () => {
    partner.failAlways('transactions.create', { status: 502 });
    const order = await confirmedOrder();
    let row = await settled(order.id);
    expect(row).toMatchObject({ status: 'failed', last_http_status: 502 });
    expect(row.error_message).toMatch(/gave up after 3 retries/);
    expect(createsFor(row.idempotency_key!)).toHaveLength(4);
    partner.recover();
    const resend = await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`);
    expect(resend.status).toBe(202);
    row = await settled(order.id);
    expect(row).toMatchObject({ status: 'pushed', attempts: 2, error_message: null, last_http_status: null });
  });

  it('times out a partner that does not answer, retries, then records the failure', async () => {
    partner.failAlways('organisations.list', 'hang');
    try {
      const order = await confirmedOrder();
      const row = await settled(order.id);
      expect(row.status).toBe('failed');
      expect(row.error_message).toMatch(/no answer within 300 ms.*gave up after 3 retries/);
      expect(row.last_http_status).toBeNull();
      expect(createsFor(row.idempotency_key!)).toHaveLength(0);
    } finally {
      partner.recover();
    }
  });

  it('does not retry another 4xx, and a sent order is resent only when forced, still once at the partner', async () => {
    partner.failNext('transactions.create', { status: 400, body: { lines: ['Unknown SKU PX-300'] } });
    const order = await confirmedOrder();
    let row = await settled(order.id);
    expect(row).toMatchObject({ status: 'failed', last_http_status: 400 });
    expect(createsFor(row.idempotency_key!)).toHaveLength(1);
    expect(JSON.stringify(row.partner_response)).toContain('Unknown SKU');
    expect(row.error_message).toBe(
      'POST /api/v1/admin/transaction/ answered 400: {"lines":["Unknown SKU PX-300"]}',
    );

    expect((await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, {})).status).toBe(202);
    row = await settled(order.id);
    expect(row.status).toBe('pushed');
    const refused = await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: 'conflict', status: 'pushed' });
    expect(
      (await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, { force: 'yes' })).status,
    ).toBe(400);

    const forced = await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, { force: true });
    expect(forced.status).toBe(202);
    const again = await settled(order.id);
    expect(again).toMatchObject({ status: 'pushed', partner_process_id: row.partner_process_id });
    // Sent twice under one key: the partner holds one transaction.
    expect(createsFor(row.idempotency_key!)).toHaveLength(3);
    expect(partner.transactions.filter((t) => t.idempotency_key === row.idempotency_key)).toHaveLength(1);
  });

  it('sends once when a job is delivered twice or several run at once', async () => {
    // Stop the worker from sweeping this order by itself: turn the sync off, confirm, turn it on.
    await call('PUT', '/admin/aplt/parameters/partner', { enabled: false });
    const order = await confirmedOrder();
    expect((await call('GET', `/admin/aplt/orders/${order.id}/partner`)).body.sync).toBeNull();
    await call('PUT', '/admin/aplt/parameters/partner', { enabled: true });
    expect((await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, {})).status).toBe(202);
    // The resend queued a job; add duplicates of it and race five direct sends against them.
    await Promise.all(
      [1, 2, 3].map(() =>
        queues.enqueue('partner-sync', 'partner-sync.order', { tenantId: 'acme', orderId: order.id }),
      ),
    );
    const direct = await Promise.all([1, 2, 3, 4, 5].map(() => sendOrder(db(), 'acme', order.id, deps())));
    const row = await settled(order.id);
    expect(row.status).toBe('pushed');
    expect(direct.filter((r) => r.result === 'sent').length).toBeLessThanOrEqual(1);
    expect(createsFor(row.idempotency_key!)).toHaveLength(1);
    // Later deliveries of the same job find nothing to send.
    const late = await sendOrder(db(), 'acme', order.id, deps());
    expect(late).toEqual({ result: 'skipped', reason: 'order is pushed' });
    expect(createsFor(row.idempotency_key!)).toHaveLength(1);
  });

  it('reads shipped with a tracking link into the order the customer sees', async () => {
    const order = await confirmedOrder();
    const row = await settled(order.id);
    partner.update(row.partner_process_id!, { status: 'confirmed' });
    expect(await pollOrderStatus(db(), 'acme', order.id, deps())).toMatchObject({ status: 'confirmed' });
    expect((await call('GET', `/admin/aplt/orders/${order.id}`)).body.status).toBe('pending');

    partner.update(row.partner_process_id!, {
      status: 'shipped',
      tracking_url: 'https://track.example/PX/42',
    });
    // Through the queue: the sweep finds the read due (last read longer ago than the poll interval).
    await db()
      .updateTable('partner_order_sync')
      .set({ last_polled_at: new Date(Date.now() - 3_600_000) })
      .where('order_id', '=', order.id)
      .execute();
    await queues.enqueue('partner-sync', 'partner-sync.sweep', { tenantId: 'acme' });
    let o: Item = {};
    for (let i = 0; i < 500; i++) {
      o = (await call('GET', `/admin/aplt/orders/${order.id}`)).body;
      if (o.status === 'shipped') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(o).toMatchObject({ status: 'shipped', tracking_url: 'https://track.example/PX/42' });
    const state = (await call('GET', `/admin/aplt/orders/${order.id}/partner`)).body;
    expect(state.sync).toMatchObject({ status: 'shipped', tracking_url: 'https://track.example/PX/42' });
    expect(state.sync.shipped_at).not.toBeNull();

    // A tracking link that is not http(s) never reaches the order.
    const other = await confirmedOrder();
    const otherRow = await settled(other.id);
    partner.update(otherRow.partner_process_id!, { status: 'shipped', tracking_url: 'javascript:alert(1)' });
    await pollOrderStatus(db(), 'acme', other.id, deps());
    const shipped = (await call('GET', `/admin/aplt/orders/${other.id}`)).body;
    expect(shipped).toMatchObject({ status: 'shipped', tracking_url: null });
  });

  it('sends an order the customer accepted in the shop, and shows the customer its tracking link', async () => {
    const dbs = { commerce: tenantDbs(fleet, 'acme').commerce, aplt: db() };
    const customer = await addCustomer(dbs, 'acme', { id: 'cus_partner', email: 'koper@partner-klant.nl' });
    const q = await call('POST', '/admin/aplt/quotations', {
      customer_id: customer.apltId,
      lines: [{ product_id: cat.partnerProductId, quantity: 40 }],
    });
    expect(q.status).toBe(201);
    const asCustomer = (method: string, path: string) =>
      proxy.request('acme.localhost', path, {
        method,
        body: method === 'POST' ? {} : undefined,
        headers: { authorization: `Bearer ${customer.token}` },
      });
    const accepted = await asCustomer('POST', `/store/aplt/quotes/${q.body.id}/accept`);
    expect(accepted.status).toBe(200);
    const orderId = Number(accepted.json().order_id);
    const row = await settled(orderId);
    expect(row.status).toBe('pushed');
    expect(createsFor(row.idempotency_key!)).toHaveLength(1);

    partner.update(row.partner_process_id!, {
      status: 'shipped',
      tracking_url: 'https://track.example/shop/7',
    });
    await pollOrderStatus(db(), 'acme', orderId, deps());
    const mine = await asCustomer('GET', `/store/aplt/orders/${orderId}`);
    expect(mine.status).toBe(200);
    expect(mine.json()).toMatchObject({ status: 'shipped', tracking_url: 'https://track.example/shop/7' });
  });

  it('schedules the sweep as a BullMQ job scheduler, once however often it is set up', async () => {
    await schedulePartnerSweep(queues, 15_000);
    await schedulePartnerSweep(queues, 15_000);
    const schedulers = await queues.queue('partner-sync').getJobSchedulers();
    expect(schedulers.filter((j) => j.key === 'partner-sync.sweep.every')).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ name: 'partner-sync.sweep', every: 15_000 });
    await queues.queue('partner-sync').removeJobScheduler('partner-sync.sweep.every');
  });

  it('answers 404 for unknown orders and for another tenant', async () => {
    const order = await confirmedOrder();
    await settled(order.id);
    expect((await call('GET', `/admin/aplt/orders/${order.id}/partner`, undefined, 'globex')).status).toBe(
      404,
    );
    expect(
      (await call('POST', `/admin/aplt/orders/${order.id}/partner/resend`, { force: true }, 'globex')).status,
    ).toBe(404);
    expect((await call('GET', '/admin/aplt/orders/999999/partner')).status).toBe(404);
    expect((await call('GET', '/admin/aplt/orders/99999999999999999999/partner')).status).toBe(400);
    expect((await call('GET', '/admin/aplt/orders/partner', undefined, 'globex')).body).toMatchObject({
      data: [],
      count: 0,
    });
    const anon = await proxy.request('acme.localhost', `/admin/aplt/orders/${order.id}/partner`);
    expect(anon.status).toBe(401);
  });
});
