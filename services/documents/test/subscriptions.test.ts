import { allFeaturesClient } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import { createTestFleet, createTestRedis, type TestFleet, type TestRedis, viaProxy } from '@aplt/testing';
import { sql } from 'kysely';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { startDocumentsWorker } from '../src/jobs/documents.worker';
import { periodContaining, runBilling } from '../src/subscriptions/billing.service';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

type App = Awaited<ReturnType<typeof buildApp>>;

describe('billing periods', () => {
  it('counts periods from the first day of the start month', () => {
    expect(periodContaining('2026-03-15', 'monthly', '2026-12-01')).toEqual({
      start: '2026-12-01',
      end: '2026-12-31',
    });
    expect(periodContaining('2026-02-10', 'quarterly', '2026-03-01')).toEqual({
      start: '2026-02-01',
      end: '2026-04-30',
    });
    expect(periodContaining('2026-02-10', 'quarterly', '2027-01-01')).toEqual({
      start: '2026-11-01',
      end: '2027-01-31',
    });
    expect(periodContaining('2024-02-01', 'monthly', '2024-02-01')).toEqual({
      start: '2024-02-01',
      end: '2024-02-29',
    });
    expect(periodContaining('2025-06-01', 'yearly', '2026-05-01')).toEqual({
      start: '2025-06-01',
      end: '2026-05-31',
    });
    expect(periodContaining('2026-06-01', 'yearly', '2026-05-01')).toBeUndefined();
  });
});

describe('subscriptions and their billing (real PostgreSQL and Redis)', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let queues: QueueClient;
  let app: App;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;
  const db = () => tenantDbs(fleet, 'acme').aplt;

  const call = async (method: string, url: string, payload?: unknown, host = 'acme.localhost') => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: {
        ...viaProxy(host),
        authorization: `Bearer ${host === 'acme.localhost' ? token : await adminToken('beta')}`,
      },
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const line = (description: string, unit_price: string, quantity = 1) => ({
    description,
    unit_price,
    quantity,
  });
  const create = async (body: object) => {
    const res = await call('POST', '/admin/aplt/subscriptions', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; status: string };
  };
  const invoicesPerPeriod = () =>
    db()
      .selectFrom('aplt_subscription_invoices')
      .select(['subscription_id', sql<string>`period_start::text`.as('period_start'), 'invoice_id'])
      .orderBy('subscription_id')
      .orderBy('period_start')
      .execute();
  const invoiceCount = async () =>
    Number(
      (
        await db()
          .selectFrom('aplt_invoice_headers')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'beta' }]);
    redis = await createTestRedis();
    queues = new QueueClient(createRedis(redis.url), redis.prefix);
    cat = await seedCatalog(db());
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient, queues },
      loadConfig(testEnv(fleet.env)),
    );
    token = await adminToken('acme');
  });

  afterAll(async () => {
    await app?.close();
    await queues?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('creates, reads, lists, changes, pauses and resumes subscriptions', async () => {
    const s = await create({
      customer_id: cat.customerNl,
      description: 'Webshop hosting',
      interval: 'monthly',
      start_date: '2026-01-01',
      reference: 'HOST-1',
      lines: [line('Hosting', '49.50'), { ...line('Extra opslag', '2.5', 4), discount_percent: '10' }],
    });
    expect(s).toMatchObject({
      interval: 'monthly',
      start_date: '2026-01-01',
      end_date: null,
      customer_company: 'Bakker BV',
      lines: [
        { line_no: 1, description: 'Hosting', quantity: 1, unit_price: '49.5000', vat_rate: '21.00' },
        {
          line_no: 2,
          description: 'Extra opslag',
          quantity: 4,
          unit_price: '2.5000',
          discount_percent: '10.00',
        },
      ],
    });
    const got = await call('GET', `/admin/aplt/subscriptions/${s.id}`);
    expect(got.body).toMatchObject({ id: s.id, status: 'active', description: 'Webshop hosting' });

    const updated = await call('PUT', `/admin/aplt/subscriptions/${s.id}`, {
      interval: 'quarterly',
      lines: [line('Hosting', '55.00')],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ interval: 'quarterly', lines: [{ unit_price: '55.0000' }] });
    expect(updated.body.lines).toHaveLength(1);

    const paused = await call('POST', `/admin/aplt/subscriptions/${s.id}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused' });
    expect(paused.body.paused_at).toBeTruthy();
    const list = await call('GET', '/admin/aplt/subscriptions?status=paused&q=hosting');
    expect(list.body).toMatchObject({ count: 1, limit: 20, offset: 0 });
    expect(list.body.data[0]).toMatchObject({ id: s.id, status: 'paused', amount_excl_vat: '55.00' });
    const resumed = await call('POST', `/admin/aplt/subscriptions/${s.id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'active', paused_at: null });
    expect((await call('GET', '/admin/aplt/subscriptions?status=paused')).body.count).toBe(0);

    const audit = await db()
      .selectFrom('aplt_audit_log')
      .select('action')
      .where('entity_type', '=', 'subscription')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'subscription.create',
      'subscription.update',
      'subscription.pause',
      'subscription.resume',
    ]);
    await db().deleteFrom('aplt_subscriptions').where('id', '=', s.id).execute();
  });

  it('refuses bad input with the stable error body, and other tenants ids are 404', async () => {
    const base = {
      customer_id: cat.customerNl,
      description: 'X',
      interval: 'monthly',
      start_date: '2026-01-01',
      lines: [line('A', '1.00')],
    };
    const bad = async (body: object, status: number) => {
      const res = await call('POST', '/admin/aplt/subscriptions', body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.body).toMatchObject({ type: expect.any(String), message: expect.any(String) });
      return res.body;
    };
    expect(await bad({ ...base, end_date: '2025-12-31' }, 400)).toMatchObject({ type: 'invalid_data' });
    await bad({ ...base, start_date: '2026-02-30' }, 400);
    await bad({ ...base, interval: 'weekly' }, 400);
    await bad({ ...base, lines: [] }, 400);
    await bad({ ...base, lines: Array.from({ length: 51 }, () => line('A', '1')) }, 400);
    await bad({ ...base, lines: [line('A', '-1.00')] }, 400);
    await bad({ ...base, lines: [line('A', '1e3')] }, 400);
    await bad({ ...base, lines: [{ ...line('A', '1'), quantity: 0 }] }, 400);
    await bad({ ...base, description: 'a\u0000b' }, 400);
    await bad({ ...base, description: 'x'.repeat(201) }, 400);
    await bad({ ...base, surprise: true }, 400);
    expect(await bad({ ...base, customer_id: 999_999 }, 422)).toMatchObject({
      type: 'unprocessable',
      message: 'customer 999999 does not exist',
    });
    await bad({ ...base, lines: [{ ...line('A', '1'), product_id: 424242 }] }, 422);

    const s = await create(base);
    expect((await call('PUT', `/admin/aplt/subscriptions/${s.id}`, { end_date: '2025-01-01' })).status).toBe(
      422,
    );
    // The same id on another tenant's host is another database: no such subscription.
    for (const url of [`/admin/aplt/subscriptions/${s.id}`, `/admin/aplt/subscriptions/${s.id}/invoices`]) {
      const other = await call('GET', url, undefined, 'beta.localhost');
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ type: 'not_found' });
    }
    expect(
      (await call('PUT', `/admin/aplt/subscriptions/${s.id}`, { description: 'Y' }, 'beta.localhost')).status,
    ).toBe(404);
    expect(
      (await call('POST', `/admin/aplt/subscriptions/${s.id}/pause`, undefined, 'beta.localhost')).status,
    ).toBe(404);
    expect((await call('GET', '/admin/aplt/subscriptions/99999999999999999999')).status).toBe(400);
    expect((await call('GET', '/admin/aplt/subscriptions/billing-runs/77')).status).toBe(404);
    expect(
      (await call('POST', '/admin/aplt/subscriptions/billing-runs', { date: '2026-13-01' })).status,
    ).toBe(400);
    expect((await call('GET', '/admin/aplt/subscriptions?limit=1000')).status).toBe(400);
    await db().deleteFrom('aplt_subscriptions').where('id', '=', s.id).execute();
  });

  describe('billing', () => {
    let ids: Record<'monthly' | 'quarterly' | 'reverse' | 'paused' | 'ended' | 'notStarted', number>;

    beforeAll(async () => {
      const sub = (description: string, extra: object = {}) =>
        create({
          customer_id: cat.customerNl,
          description,
          interval: 'monthly',
          start_date: '2026-06-15',
          lines: [line(description, '100.00')],
          ...extra,
        }).then((s) => s.id);
      ids = {
        monthly: await sub('Monthly'),
        quarterly: await sub('Quarterly', { interval: 'quarterly', start_date: '2026-11-20' }),
        reverse: await sub('Reverse charge', { customer_id: cat.customerDe }),
        paused: await sub('Paused', { paused: true }),
        ended: await sub('Ended', { end_date: '2026-11-30' }),
        notStarted: await sub('Not started', { start_date: '2026-12-02' }),
      };
    });

    it('invoices the period of each active subscription once, with numbering and VAT', async () => {
      const res = await call('POST', '/admin/aplt/subscriptions/billing-runs', { date: '2026-12-01' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        billing_date: '2026-12-01',
        trigger: 'manual',
        status: 'succeeded',
        created_count: 3,
        skipped_count: 0,
        failed_count: 0,
        actor: 'user_x',
      });
      expect(res.body.created.map((c: { subscription_id: number }) => c.subscription_id)).toEqual([
        ids.monthly,
        ids.quarterly,
        ids.reverse,
      ]);
      expect(res.body.created.map((c: { invoice_number: string }) => c.invoice_number)).toEqual([
        'F-2026-0001',
        'F-2026-0002',
        'F-2026-0003',
      ]);
      expect(res.body.created[1]).toMatchObject({ period_start: '2026-11-01', period_end: '2027-01-31' });

      const nl = await call('GET', `/admin/aplt/invoices/${res.body.created[0].invoice_id}`);
      expect(nl.body).toMatchObject({
        invoice_number: 'F-2026-0001',
        issue_date: '2026-12-01',
        subtotal: '100.00',
        vat_total: '21.00',
        total: '121.00',
        reverse_charge: false,
        lines: [{ description: 'Monthly (periode 2026-12-01 t/m 2026-12-31)', line_total: '100.00' }],
      });
      const de = await call('GET', `/admin/aplt/invoices/${res.body.created[2].invoice_id}`);
      expect(de.body).toMatchObject({ subtotal: '100.00', vat_total: '0.00', reverse_charge: true });

      const again = await call('POST', '/admin/aplt/subscriptions/billing-runs', { date: '2026-12-01' });
      expect(again.body).toMatchObject({ status: 'succeeded', created_count: 0, skipped_count: 3 });
      expect(await invoiceCount()).toBe(3);

      const own = await call('GET', `/admin/aplt/subscriptions/${ids.monthly}/invoices`);
      expect(own.body).toMatchObject({ count: 1 });
      expect(own.body.data[0]).toMatchObject({
        invoice_number: 'F-2026-0001',
        period_start: '2026-12-01',
        period_end: '2026-12-31',
        billing_run_id: res.body.id,
      });
      const runs = await call('GET', '/admin/aplt/subscriptions/billing-runs');
      expect(runs.body).toMatchObject({ count: 2 });
      expect(runs.body.data[0]).toMatchObject({ id: again.body.id, created_count: 0 });
    });

    it('two concurrent runs create each period once', async () => {
      const [a, b] = await Promise.all([
        runBilling(db(), { date: '2027-01-01', trigger: 'manual', actor: 'a' }),
        runBilling(db(), { date: '2027-01-01', trigger: 'manual', actor: 'b' }),
      ]);
      // January: monthly, reverse charge and the one that started on 2 December are due; the
      // quarterly period (November to January) has its invoice.
      expect(a.created.length + b.created.length).toBe(3);
      expect(a.skipped + b.skipped).toBe(5);
      expect([...a.created, ...b.created].map((c) => c.subscription_id).sort((x, y) => x - y)).toEqual([
        ids.monthly,
        ids.reverse,
        ids.notStarted,
      ]);
      expect(await invoiceCount()).toBe(6);
      const keys = await invoicesPerPeriod();
      expect(new Set(keys.map((k) => `${k.subscription_id}/${k.period_start}`)).size).toBe(keys.length);
      expect(keys).toHaveLength(6);
    });

    it('a failing subscription leaves the others committed and a rerun completes the rest', async () => {
      // The German customer's invoice insert fails in the database (a real error, mid-run).
      await sql`
        CREATE FUNCTION test_fail_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.customer_id = ${sql.lit(cat.customerDe)} THEN RAISE EXCEPTION 'disk full'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER test_fail_invoice BEFORE INSERT ON aplt_invoice_headers
          FOR EACH ROW EXECUTE FUNCTION test_fail_invoice();
      `.execute(db());
      const first = await runBilling(db(), { date: '2027-02-01', trigger: 'schedule', actor: null });
      expect(first.status).toBe('failed');
      expect(first.created.map((c) => c.subscription_id)).toEqual([
        ids.monthly,
        ids.quarterly,
        ids.notStarted,
      ]);
      expect(first.failures).toEqual([
        {
          subscription_id: ids.reverse,
          message: 'the invoice could not be written (database error P0001; details in the service log)',
        },
      ]);
      const run = await call('GET', `/admin/aplt/subscriptions/billing-runs/${first.run_id}`);
      expect(run.body).toMatchObject({
        status: 'failed',
        created_count: 3,
        failed_count: 1,
        trigger: 'schedule',
      });
      expect(await invoiceCount()).toBe(9);

      await sql`DROP TRIGGER test_fail_invoice ON aplt_invoice_headers; DROP FUNCTION test_fail_invoice();`.execute(
        db(),
      );
      const rerun = await runBilling(db(), { date: '2027-02-01', trigger: 'schedule', actor: null });
      expect(rerun).toMatchObject({ status: 'succeeded', skipped: 3, failures: [] });
      expect(rerun.created.map((c) => c.subscription_id)).toEqual([ids.reverse]);
      expect(await invoiceCount()).toBe(10);
      const keys = await invoicesPerPeriod();
      expect(
        keys.filter((k) => k.period_start === '2027-02-01').map((k) => Number(k.subscription_id)),
      ).toEqual([ids.monthly, ids.quarterly, ids.reverse, ids.notStarted]);
      // Numbers stay gapless: the failed insert took none.
      const numbers = await db()
        .selectFrom('aplt_invoice_headers')
        .select('invoice_number')
        .orderBy('id')
        .execute();
      expect(numbers.map((n) => n.invoice_number)).toEqual([
        'F-2026-0001',
        'F-2026-0002',
        'F-2026-0003',
        'F-2027-0001',
        'F-2027-0002',
        'F-2027-0003',
        'F-2027-0004',
        'F-2027-0005',
        'F-2027-0006',
        'F-2027-0007',
      ]);
    });

    it('paused and ended subscriptions are skipped, and a resumed one is billed again', async () => {
      const billed = new Set((await invoicesPerPeriod()).map((k) => Number(k.subscription_id)));
      expect(billed.has(ids.paused)).toBe(false);
      expect(billed.has(ids.ended)).toBe(false);
      expect(billed.has(ids.notStarted)).toBe(true);
      await call('POST', `/admin/aplt/subscriptions/${ids.paused}/resume`);
      const r = await runBilling(db(), { date: '2027-03-01', trigger: 'manual', actor: null });
      expect(r.created.map((c) => c.subscription_id)).toEqual([
        ids.monthly,
        ids.reverse,
        ids.paused,
        ids.notStarted,
      ]);
      expect(r.skipped).toBe(1);
    });
  });

  it('the scheduler exists once, with the right pattern, only while billing is on', async () => {
    const schedulers = () => queues.queue('documents').getJobSchedulers();
    const off = await call('GET', '/admin/aplt/subscriptions/settings');
    expect(off.body).toEqual({
      billing_enabled: false,
      pattern: '0 8 1 * *',
      timezone: 'Europe/Amsterdam',
      schedule: null,
    });
    expect(await schedulers()).toHaveLength(0);

    for (let i = 0; i < 2; i++) {
      const on = await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: true });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({
        billing_enabled: true,
        schedule: { pattern: '0 8 1 * *', timezone: 'Europe/Amsterdam' },
      });
      // The next run is the 1st of a month at 08:00 in Amsterdam (07:00 or 06:00 UTC).
      expect(on.body.schedule.next_run).toMatch(/^\d{4}-\d{2}-01T0[67]:00:00\.000Z$/);
    }
    const list = await schedulers();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      key: 'subscriptions.bill:acme',
      pattern: '0 8 1 * *',
      tz: 'Europe/Amsterdam',
      template: { data: { tenantId: 'acme' } },
    });
    expect(list[0]!.name).toBe('subscriptions.bill');

    const disabled = await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: false });
    expect(disabled.body).toMatchObject({ billing_enabled: false, schedule: null });
    expect(await schedulers()).toHaveLength(0);
    expect((await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: 'yes' })).status).toBe(
      400,
    );
  });

  it('the queued job bills and reports what it created', async () => {
    await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: true });
    const connection = createRedis(redis.url, { forWorker: true });
    const lines: string[] = [];
    const worker = startDocumentsWorker(
      { registry: fleet.registry, databases: fleet.databases },
      {
        connection,
        prefix: redis.prefix,
        log: { info: (_o, msg) => lines.push(msg), error: () => {} },
      },
    );
    const events = new QueueEvents('documents', {
      connection: createRedis(redis.url, { forWorker: true }),
      prefix: redis.prefix,
    });
    try {
      await events.waitUntilReady();
      const id = await queues.enqueue('documents', 'subscriptions.bill', {
        tenantId: 'acme',
        date: '2027-04-01',
      });
      const job = await queues.queue('documents').getJob(id);
      const result = (await job!.waitUntilFinished(events, 30_000)) as {
        run_id: number;
        created: Array<{ invoice_number: string }>;
        status: string;
      };
      expect(result.status).toBe('succeeded');
      expect(result.created[0]!.invoice_number).toMatch(/^F-2027-\d{4}$/);
      // April: the quarterly period (February to April) has its invoice; the other four are due.
      expect(result.created).toHaveLength(4);
      expect(lines).toContain('subscription billing 2027-04-01: 4 invoice(s) created, 1 skipped, 0 failed');
      const run = await call('GET', `/admin/aplt/subscriptions/billing-runs/${result.run_id}`);
      expect(run.body).toMatchObject({ created_count: result.created.length, status: 'succeeded' });
      await call('PUT', '/admin/aplt/subscriptions/settings', { billing_enabled: false });
    } finally {
      await worker.close();
      await events.close();
      connection.disconnect();
    }
  });
});
