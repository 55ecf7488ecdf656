import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type ControlDatabase,
  createPgDb,
  type Kysely,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { type PgCluster, startPgCluster, testServers } from '@aplt/testing';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../fleet/seeds/demo-tenants';
import { type FleetFixture, startFleetFixture } from './fleet-fixture';
import { expectOutageContained, until } from './pg-outage';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const NEW_PASSWORD = 'Two-Servers-2026!';
/**
 * Issue #18 "Several database servers": the start command's fleet (every service its own
 * process, Caddy in front) with the registry placing pim and globex on a second PostgreSQL
 * server (a private cluster on a free port) and master and acme on the first. The document flow,
 * password sync over all tenants and a tenant update work across both; `pnpm tenant:add --pg`
 * adds a tenant there while the fleet runs; and when the second server stops under traffic, its
 * tenants answer 503 with the stable body (never 500, never a hang) while acme keeps working, and
 * they work again within 5 s of its return.
 */
describe('tenants on two PostgreSQL servers', () => {
  let f: FleetFixture;
  let second: PgCluster;
  let control: Kysely<ControlDatabase>;
  let registry: TenantRegistry;
  let databases: TenantDatabases;
  let password = demoAdmin.password;

  const host = (id: string) => `${id}.localhost`;
  const login = (id: string, pass = password) =>
    f.via(host(id), '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: pass },
    });
  const tokenOf = async (id: string) => {
    const res = await login(id);
    expect(res.status, `login on ${id}: ${res.text()}`).toBe(200);
    return String(res.json().token);
  };
  const api = (id: string, token: string, method: string, path: string, body?: object) =>
    f.via(host(id), path, { method, body, headers: { authorization: `Bearer ${token}` } });
  const portOf = async <DB>(db: Kysely<DB>) =>
    (await sql<{ p: number }>`select current_setting('port')::int as p`.execute(db)).rows[0]!.p;

  beforeAll(async () => {
    second = await startPgCluster();
    f = await startFleetFixture('master,pim,acme,globex', {
      FLEET_PG_SECOND: `${second.host}:${second.port}`,
      FLEET_PG_SECOND_TENANTS: 'pim,globex',
    });
    const pg = testServers().pg;
    control = createPgDb<ControlDatabase>({ ...pg, database: `${f.prefix}control` }, { max: 2 });
    registry = new TenantRegistry(control, 0);
    databases = new TenantDatabases({ commerce: pg, aplt: pg }, { poolMax: 2 });
  }, 600_000);

  afterAll(async () => {
    await databases?.close();
    await control?.destroy();
    await f?.stop();
    await second?.destroy();
  }, 120_000);

  it('the registry records each tenant on its server, and the databases are there', async () => {
    const pg = testServers().pg;
    for (const [id, port] of [
      ['master', pg.port],
      ['acme', pg.port],
      ['pim', second.port],
      ['globex', second.port],
    ] as const) {
      const t = (await registry.get(id))!;
      expect(await portOf(databases.aplt(t)), `${id} aplt`).toBe(port);
      expect(await portOf(databases.commerce(t)), `${id} commerce`).toBe(port);
    }
    expect((await registry.get('globex'))!.apltDb).toMatchObject({ host: second.host, port: second.port });
    expect((await registry.get('acme'))!.apltDb.port).toBeUndefined();
    expect(f.output.join('\n')).toContain(`(pim, globex on ${second.host}:${second.port})`);
  });

  it('runs quotation -> order -> invoice through the proxy on a tenant of each server', async () => {
    for (const id of ['acme', 'globex']) {
      const token = await tokenOf(id);
      const customer = await databases
        .aplt((await registry.get(id))!)
        .selectFrom('aplt_customers')
        .select('id')
        .where('customer_number', '=', 'K0001')
        .executeTakeFirstOrThrow();
      const q = await api(id, token, 'POST', '/admin/aplt/quotations', {
        customer_id: Number(customer.id),
        title: `Two servers ${id}`,
        source_code: 'manual',
        lines: [
          { line_type: 'product', description: 'Pen', quantity: 100, unit_price: '1.00', setup_costs: [] },
        ],
      });
      expect(q.status, `${id}: ${q.text()}`).toBe(201);
      const o = await api(id, token, 'POST', '/admin/aplt/quotations/confirm', { id: q.json().id });
      expect(o.status, `${id}: ${o.text()}`).toBe(201);
      expect(o.json().order_number).toMatch(/^O-\d{4}-\d{4}$/);
      const inv = await api(id, token, 'POST', '/admin/aplt/invoices', { order_id: o.json().id });
      expect(inv.status, `${id}: ${inv.text()}`).toBe(201);
      expect(inv.json()).toMatchObject({ document_type: 'invoice', total: o.json().total });
      expect(inv.json().invoice_number).toMatch(/^F-\d{4}-\d{4}$/);
      // Written where the registry says: the documents are in this tenant's database only.
      const other = id === 'acme' ? 'globex' : 'acme';
      const count = async (tenant: string) =>
        (
          await sql<{ n: number }>`select count(*)::int as n from aplt_quotation_headers
            where title = ${`Two servers ${id}`}`.execute(databases.aplt((await registry.get(tenant))!))
        ).rows[0]!.n;
      expect(await count(id)).toBe(1);
      expect(await count(other)).toBe(0);
    }
  });

  it('password sync: a reset on acme reaches every tenant on both servers', async () => {
    const reset = await f.via(host('acme'), '/auth/user/emailpass/reset-password', {
      method: 'POST',
      body: { identifier: demoAdmin.email },
    });
    expect(reset.status, reset.text()).toBe(201);
    let link: URL | undefined;
    await until('the reset mail', async () => {
      for (const name of readdirSync(f.mailDir).filter((n) => n.endsWith('.eml'))) {
        const text = (await simpleParser(readFileSync(join(f.mailDir, name)))).text ?? '';
        const m = /http:\/\/acme\.localhost\S*\/app\/reset-password\?\S+/.exec(text);
        if (m) link = new URL(m[0]);
      }
      return link !== undefined;
    });
    const update = await f.via(host('acme'), '/auth/user/emailpass/update', {
      method: 'POST',
      headers: { authorization: `Bearer ${link!.searchParams.get('token')}` },
      body: { password: NEW_PASSWORD },
    });
    expect(update.status, update.text()).toBe(200);
    const runId = String(update.headers['x-password-sync-run']);
    password = NEW_PASSWORD;
    const admin = await tokenOf('acme');
    let state: { status: string; counts: Record<string, number> } | undefined;
    await until('the password-sync run', async () => {
      const res = await api('acme', admin, 'GET', `/admin/password-sync/runs/${runId}`);
      if (res.status === 200) state = res.json().run;
      return state?.status === 'completed' || state?.status === 'failed';
    });
    expect(state).toMatchObject({ status: 'completed', counts: { databases: 4, updated: 4, failed: 0 } });
    for (const id of ['master', 'pim', 'acme', 'globex']) {
      expect((await login(id, NEW_PASSWORD)).status, `new password on ${id}`).toBe(200);
      expect((await login(id, demoAdmin.password)).status, `old password on ${id}`).toBe(401);
    }
  });

  it('tenant update: the master (first server) copies its catalog into tenants on both servers', async () => {
    const master = (await registry.get('master'))!;
    const product = await databases
      .aplt(master)
      .selectFrom('aplt_products')
      .select(['id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const marker = `Two-server update ${Date.now()}`;
    await databases
      .aplt(master)
      .updateTable('aplt_products')
      .set({ name_nl: marker })
      .where('id', '=', product.id)
      .execute();
    const token = await tokenOf('master');
    const started = await api('master', token, 'POST', '/admin/tenant-update', {
      tenant_ids: ['acme', 'globex'],
    });
    expect(started.status, started.text()).toBe(202);
    let status = '';
    await until(
      'the tenant-update run',
      async () => {
        const res = await api('master', token, 'GET', `/admin/tenant-update/runs/${started.json().run_id}`);
        status = res.status === 200 ? String(res.json().run.status) : status;
        return status === 'succeeded' || status === 'failed';
      },
      120_000,
    );
    expect(status).toBe('succeeded');
    for (const id of ['acme', 'globex']) {
      const row = await databases
        .aplt((await registry.get(id))!)
        .selectFrom('aplt_products')
        .select('name_nl')
        .where('id', '=', product.id)
        .executeTakeFirst();
      expect(row?.name_nl, id).toBe(marker);
    }
  }, 180_000);

  it('pnpm tenant:add <id> --pg puts a new tenant on the second server while the fleet runs', async () => {
    const pg = testServers().pg;
    const env = {
      ...process.env,
      PG_HOST: pg.host,
      PG_PORT: String(pg.port),
      PG_USER: pg.user,
      ...(pg.password ? { PG_PASS: pg.password } : {}),
      CONTROL_DB: `${f.prefix}control`,
    };
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/db/src/cli/tenant-add.ts',
        'late',
        '--pg',
        `${second.host}:${second.port}`,
      ],
      { cwd: repoRoot, env },
    );
    expect(stdout).toContain(`tenant late ready on ${second.host}:${second.port}`);
    const late = (await registry.get('late'))!;
    expect(await portOf(databases.commerce(late))).toBe(second.port);
    // The fleet serves it at once: its host resolves, and its commerce database answers a login.
    expect((await f.via(host('late'), '/')).json().tenant.id).toBe('late');
    const nobody = await login('late', 'Not-A-User-2026!');
    expect(nobody.status, nobody.text()).toBe(401);
  });

  it('the second server stops under traffic: its tenants answer 503 at once, acme is unaffected, and they work again within 5 s of its return', async () => {
    const tokens = { acme: await tokenOf('acme'), globex: await tokenOf('globex') };
    await expectOutageContained({
      request: (tenant) => api(tenant, tokens[tenant], 'GET', '/admin/aplt/quotations?limit=5'),
      server: second,
      pauseMs: 50,
    });
  }, 180_000);
});
