import type { ApltDatabase, Kysely } from '@aplt/db';
import { type FeatureKey, featureKeys, staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The admin panel's records in the documents service: customers, parameters, the content group
 * (read-only) and the line editor's price proposal. Two tenants with their own databases; the
 * app is called with the proxy's identity assertion and an admin token of the host's tenant.
 */
describe('documents: customers, parameters, content and price proposals', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let acmeDb: Kysely<ApltDatabase>;
  let globexDb: Kysely<ApltDatabase>;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;
  const tokens: Record<string, string> = {};
  const licensed: Record<string, FeatureKey[]> = {};

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    acmeDb = tenantDbs(fleet, 'acme').aplt;
    globexDb = tenantDbs(fleet, 'globex').aplt;
    cat = await seedCatalog(acmeDb);
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource(licensed), start: async () => {}, close: async () => {} },
      },
      loadConfig(testEnv(fleet.env)),
    );
    await app.ready();
    tokens.acme = await adminToken('acme');
    tokens.globex = await adminToken('globex');
  });
  beforeEach(() => {
    delete licensed.acme;
    delete licensed.globex;
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  const call = async (
    method: Method,
    url: string,
    payload?: unknown,
    opts: { tenant?: string; token?: string | null } = {},
  ) => {
    const tenant = opts.tenant ?? 'acme';
    const token = opts.token === undefined ? tokens[tenant] : opts.token;
    const res = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { ...viaProxy(`${tenant}.localhost`), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  describe('customers', () => {
    it('refuses callers without a token (401), tenants without the feature (403) and malformed input (400)', async () => {
      for (const [method, url, body] of [
        ['GET', '/admin/aplt/customers'],
        ['GET', '/admin/aplt/customers/1'],
        ['POST', '/admin/aplt/customers', { company: 'X' }],
        ['PUT', '/admin/aplt/customers/1', { company: 'X' }],
        ['DELETE', '/admin/aplt/customers/1'],
      ] as Array<[Method, string, object?]>) {
        expect((await call(method, url, body, { token: null })).status, `${method} ${url}`).toBe(401);
        licensed.acme = featureKeys.filter((f) => f !== 'customers');
        const refused = await call(method, url, body);
        expect(refused.status, `${method} ${url}`).toBe(403);
        expect(refused.body).toMatchObject({ feature: 'customers' });
        delete licensed.acme;
      }
      const bad: Array<[Method, string, object?]> = [
        ['GET', '/admin/aplt/customers?limit=0'],
        ['GET', '/admin/aplt/customers?limit=101'],
        ['GET', '/admin/aplt/customers?offset=-1'],
        ['GET', '/admin/aplt/customers?sort=shoe-size'],
        ['GET', `/admin/aplt/customers?q=${'x'.repeat(201)}`],
        ['GET', '/admin/aplt/customers/abc'],
        ['GET', '/admin/aplt/customers/0'],
        ['GET', '/admin/aplt/customers/99999999999999999999'],
        ['POST', '/admin/aplt/customers', {}],
        ['POST', '/admin/aplt/customers', { company: 'X', email: 'not-an-address' }],
        ['POST', '/admin/aplt/customers', { company: 'X', country: 'Netherlands' }],
        ['POST', '/admin/aplt/customers', { company: 'X', payment_term_days: 61 }],
        ['POST', '/admin/aplt/customers', { company: 'X', customer_number: 'K 1' }],
        // VAT number shapes: NL needs NL + 9 digits + B + 2 digits; a German customer a DE number.
        ['POST', '/admin/aplt/customers', { company: 'X', vat_number: 'NL12345678B01' }],
        ['POST', '/admin/aplt/customers', { company: 'X', vat_number: 'DE123456789' }],
        ['POST', '/admin/aplt/customers', { company: 'X', country: 'DE', vat_number: 'DE12345678' }],
        ['POST', '/admin/aplt/customers', { company: 'X', vat_number: '123' }],
        ['PUT', '/admin/aplt/customers/1', { email: 12 }],
        ['PUT', '/admin/aplt/customers/1', { expected_updated_at: 'yesterday' }],
      ];
      for (const [method, url, body] of bad) {
        const res = await call(method, url, body);
        expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.type).toBe('invalid_data');
      }
    });

    it('creates customers with numbers, refuses duplicates (409) and unknown references (422)', async () => {
      const a = await call('POST', '/admin/aplt/customers', {
        company: 'Jansen Drukwerk',
        first_name: 'Piet',
        last_name: 'Jansen',
        email: 'Piet@Jansen.NL',
        vat_number: 'nl 0012.34567.B02',
        city: 'Zwolle',
      });
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      // The first automatic number; e-mail and VAT number stored in one spelling.
      expect(a.body).toMatchObject({
        customer_number: 'K0001',
        email: 'piet@jansen.nl',
        vat_number: 'NL001234567B02',
        country: 'NL',
        open_balance: '0.00',
        document_counts: { quotations: 0, invoices: 0 },
        recent_documents: [],
      });
      const b = await call('POST', '/admin/aplt/customers', {
        customer_number: 'K0100',
        company: 'Visser Events',
        country: 'BE',
        vat_number: 'BE0123456789',
      });
      expect(b.status).toBe(201);
      const c = await call('POST', '/admin/aplt/customers', { last_name: 'Smit' });
      expect(c.body.customer_number).toBe('K0101');

      const dupEmail = await call('POST', '/admin/aplt/customers', { company: 'Y', email: 'PIET@jansen.nl' });
      expect(dupEmail.status).toBe(409);
      expect(dupEmail.body).toMatchObject({ type: 'conflict', field: 'email', customer_id: a.body.id });
      const dupNumber = await call('POST', '/admin/aplt/customers', {
        company: 'Y',
        customer_number: 'K0100',
      });
      expect(dupNumber.status).toBe(409);
      expect(dupNumber.body).toMatchObject({ field: 'customer_number' });
      const badRef = await call('POST', '/admin/aplt/customers', { company: 'Y', brand_id: 999999 });
      expect(badRef.status).toBe(422);
      expect(badRef.body).toMatchObject({ type: 'unprocessable', field: 'brand_id' });
      // Nothing of the refused ones was written.
      const n = await acmeDb
        .selectFrom('aplt_customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(n!.n)).toBe(2 + 3);
      const audit = await acmeDb
        .selectFrom('aplt_audit_log')
        .select(['action', 'actor', 'entity_id'])
        .where('entity_type', '=', 'customer')
        .execute();
      expect(audit).toContainEqual({
        action: 'customer.create',
        actor: 'user_x',
        entity_id: String(a.body.id),
      });
    });

    it('lists with search and server-side paging', async () => {
      for (let i = 1; i <= 24; i++)
        expect(
          (
            await call('POST', '/admin/aplt/customers', {
              company: `Paging BV ${String(i).padStart(2, '0')}`,
              email: `inkoop${i}@paging.nl`,
            })
          ).status,
        ).toBe(201);
      const first = await call('GET', '/admin/aplt/customers?q=paging&limit=10');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ count: 24, limit: 10, offset: 0 });
      expect(first.body.data.map((c: Item) => c.company).slice(0, 2)).toEqual([
        'Paging BV 01',
        'Paging BV 02',
      ]);
      const last = await call('GET', '/admin/aplt/customers?q=paging&limit=10&offset=20');
      expect(last.body.data.map((c: Item) => c.company)).toEqual([
        'Paging BV 21',
        'Paging BV 22',
        'Paging BV 23',
        'Paging BV 24',
      ]);
      const beyond = await call('GET', '/admin/aplt/customers?q=paging&limit=10&offset=24');
      expect(beyond.body).toMatchObject({ data: [], count: 24 });
      expect((await call('GET', '/admin/aplt/customers?limit=100')).body.data.length).toBe(
        (await call('GET', '/admin/aplt/customers?limit=1')).body.count,
      );
      // By e-mail, by number, by name (first + last), case-insensitively; % is a literal character.
      expect(
        (await call('GET', '/admin/aplt/customers?q=INKOOP7%40')).body.data.map((c: Item) => c.email),
      ).toEqual(['inkoop7@paging.nl']);
      expect(
        (await call('GET', '/admin/aplt/customers?q=k0100')).body.data.map((c: Item) => c.company),
      ).toEqual(['Visser Events']);
      expect((await call('GET', '/admin/aplt/customers?q=piet%20jansen')).body.count).toBe(1);
      expect((await call('GET', '/admin/aplt/customers?q=%25')).body.count).toBe(0);
      const newest = await call('GET', '/admin/aplt/customers?sort=newest&limit=1');
      expect(newest.body.data[0].company).toBe('Paging BV 24');
      expect(newest.body.data[0].open_balance).toBe('0.00');
    });

    it('shows open and overdue balance, credit and the recent documents of a customer', async () => {
      const inv = async (issue_date: string, price: string) => {
        const r = await call('POST', '/admin/aplt/invoices', {
          customer_id: cat.customerNl,
          issue_date,
          payment_term_days: 14,
          lines: [{ line_type: 'product', description: 'Item', quantity: 1, unit_price: price }],
        });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body;
      };
      const old = await inv('2025-01-10', '100.00'); // 121.00, long past due
      await inv('2099-01-10', '50.00'); // 60.50, not yet due
      const pay = await call('POST', '/admin/aplt/payments', {
        customer_id: cat.customerNl,
        amount: '150.00',
        allocations: [{ invoice_id: old.id, amount: '21.00' }],
      });
      expect(pay.status).toBe(201);
      const q = await call('POST', '/admin/aplt/quotations', {
        customer_id: cat.customerNl,
        lines: [{ line_type: 'product', description: 'Item', quantity: 2, unit_price: '10.00' }],
      });
      expect(q.status).toBe(201);
      const d = await call('GET', `/admin/aplt/customers/${cat.customerNl}`);
      expect(d.status).toBe(200);
      expect(d.body).toMatchObject({
        id: cat.customerNl,
        company: 'Bakker BV',
        // 100.00 + 60.50 still owed; 100.00 of it past due; 150.00 paid of which 21.00 allocated.
        open_balance: '160.50',
        overdue_balance: '100.00',
        available_credit: '129.00',
        document_counts: { quotations: 1, orders: 0, invoices: 2, credit_notes: 0, payments: 1 },
      });
      expect(d.body.recent_documents[0]).toMatchObject({
        type: 'invoice',
        date: '2099-01-10',
        balance: '60.50',
      });
      expect(d.body.recent_documents.map((x: Item) => x.type).sort()).toEqual([
        'invoice',
        'invoice',
        'payment',
        'quotation',
      ]);
      expect(
        d.body.recent_documents.find((x: Item) => x.type === 'invoice' && x.id === old.id),
      ).toMatchObject({
        status: 'overdue',
        balance: '100.00',
        total: '121.00',
      });
      const listed = await call('GET', '/admin/aplt/customers?q=bakker');
      expect(listed.body.data[0]).toMatchObject({ id: cat.customerNl, open_balance: '160.50' });
    });

    it('updates partially, keeps the VAT number consistent with the country and refuses a stale form (409)', async () => {
      const c = (
        await call('POST', '/admin/aplt/customers', {
          company: 'Update BV',
          email: 'a@update.nl',
          phone: '+31 20 1234',
        })
      ).body;
      const changed = await call('PUT', `/admin/aplt/customers/${c.id}`, {
        phone: '',
        city: 'Leiden',
        payment_term_days: 14,
        expected_updated_at: c.updated_at,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({
        phone: null,
        city: 'Leiden',
        payment_term_days: 14,
        email: 'a@update.nl',
      });
      expect(Date.parse(changed.body.updated_at)).toBeGreaterThan(Date.parse(c.updated_at));
      // The form loaded before that change is refused, and nothing is written.
      const stale = await call('PUT', `/admin/aplt/customers/${c.id}`, {
        city: 'Delft',
        expected_updated_at: c.updated_at,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.updated_at).toBe(changed.body.updated_at);
      expect((await call('GET', `/admin/aplt/customers/${c.id}`)).body.city).toBe('Leiden');
      // A German VAT number needs the customer in Germany: alone it is refused, with the country it is taken.
      const vatOnly = await call('PUT', `/admin/aplt/customers/${c.id}`, { vat_number: 'DE123456789' });
      expect(vatOnly.status).toBe(422);
      const moved = await call('PUT', `/admin/aplt/customers/${c.id}`, {
        vat_number: 'DE123456789',
        country: 'de',
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ country: 'DE', vat_number: 'DE123456789' });
      // ...and then the country cannot move away from it.
      expect((await call('PUT', `/admin/aplt/customers/${c.id}`, { country: 'FR' })).status).toBe(422);
      // Clearing every name is refused; an e-mail of another customer is a conflict.
      expect((await call('PUT', `/admin/aplt/customers/${c.id}`, { company: null })).status).toBe(422);
      expect((await call('PUT', `/admin/aplt/customers/${c.id}`, { email: 'inkoop@bakker.nl' })).status).toBe(
        409,
      );
      expect((await call('PUT', '/admin/aplt/customers/999999', { city: 'X' })).status).toBe(404);
    });

    it('deletes a customer without documents, never one with documents (409)', async () => {
      const withDocs = await call('DELETE', `/admin/aplt/customers/${cat.customerNl}`);
      expect(withDocs.status).toBe(409);
      expect(withDocs.body.documents).toMatchObject({ invoices: 2, quotations: 1, payments: 1 });
      expect((await call('GET', `/admin/aplt/customers/${cat.customerNl}`)).status).toBe(200);
      const lone = (await call('POST', '/admin/aplt/customers', { company: 'Weg BV' })).body;
      expect((await call('DELETE', `/admin/aplt/customers/${lone.id}`)).status).toBe(204);
      expect((await call('GET', `/admin/aplt/customers/${lone.id}`)).status).toBe(404);
      expect((await call('DELETE', `/admin/aplt/customers/${lone.id}`)).status).toBe(404);
    });

    it("keeps each tenant's customers in its own database: another tenant's id is a 404", async () => {
      const ids: number[] = [];
      for (let i = 0; i < 60; i++)
        ids.push(
          (
            await call(
              'POST',
              '/admin/aplt/customers',
              { company: `Globex klant ${i}` },
              { tenant: 'globex' },
            )
          ).body.id,
        );
      const globexOnly = Math.max(...ids);
      const acmeMax = Number(
        (await acmeDb
          .selectFrom('aplt_customers')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst())!.m,
      );
      expect(globexOnly).toBeGreaterThan(acmeMax);
      expect(
        (await call('GET', `/admin/aplt/customers/${globexOnly}`, undefined, { tenant: 'globex' })).status,
      ).toBe(200);
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { city: 'X' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/admin/aplt/customers/${globexOnly}`, body);
        expect(res.status, method).toBe(404);
      }
      expect((await call('GET', '/admin/aplt/customers?q=globex')).body.count).toBe(0);
      // A token of one tenant is no token on another tenant's host.
      expect(
        (await call('GET', '/admin/aplt/customers', undefined, { tenant: 'globex', token: tokens.acme }))
          .status,
      ).toBe(401);
      expect(
        await globexDb.selectFrom('aplt_customers').select('id').where('city', '=', 'X').execute(),
      ).toEqual([]);
    });
  });

  describe('parameters', () => {
    it('shows the known keys with defaults, sets and resets them, and the quotation prices follow', async () => {
      expect((await call('GET', '/admin/aplt/parameters', undefined, { token: null })).status).toBe(401);
      licensed.acme = featureKeys.filter((f) => f !== 'parameters');
      expect((await call('GET', '/admin/aplt/parameters')).body).toMatchObject({ feature: 'parameters' });
      expect((await call('PUT', '/admin/aplt/parameters', { values: {} })).status).toBe(403);
      delete licensed.acme;

      await acmeDb.insertInto('aplt_settings').values({ key: 'legacy_banner', value: 'hello' }).execute();
      const before = await call('GET', '/admin/aplt/parameters');
      expect(before.status).toBe(200);
      const franco = () => before.body.parameters.find((p: Item) => p.key === 'franco_limit');
      expect(franco()).toMatchObject({ value: null, default: '750.00', effective: '750.00', type: 'money' });
      expect(before.body.updated_at).toBeNull();
      expect(before.body.other_settings.map((s: Item) => s.key)).toEqual(['legacy_banner']);
      expect(before.body.parameters.map((p: Item) => p.key)).toEqual([
        'franco_limit',
        'shipping_cost_default',
        'shipping_cost_per_box',
        'units_per_box',
      ]);

      const set = await call('PUT', '/admin/aplt/parameters', {
        values: { franco_limit: '500.00', shipping_cost_default: '9.95', units_per_box: '100' },
        expected_updated_at: null,
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const p = (k: string) => set.body.parameters.find((x: Item) => x.key === k);
      expect(p('franco_limit')).toMatchObject({ value: '500.00', effective: '500.00' });
      expect(p('units_per_box')).toMatchObject({ value: '100', effective: '100' });
      expect(p('shipping_cost_per_box')).toMatchObject({ value: null, effective: null });
      expect(set.body.updated_at).not.toBeNull();
      // The franco rule reads them: free strictly above 500.00.
      const quote = async (price: string) =>
        (
          await call('POST', '/admin/aplt/quotations', {
            customer_id: cat.customerNl,
            lines: [{ line_type: 'product', description: 'Item', quantity: 1, unit_price: price }],
          })
        ).body.shipping_cost;
      expect(await quote('500.00')).toBe('9.95');
      expect(await quote('500.01')).toBe('0.00');

      // A form loaded before that change is refused; so are unknown keys and malformed values.
      expect(
        (
          await call('PUT', '/admin/aplt/parameters', {
            values: { franco_limit: '600.00' },
            expected_updated_at: null,
          })
        ).status,
      ).toBe(409);
      for (const values of [
        { vat_rate: '21' },
        { franco_limit: 500 },
        { franco_limit: '500.001' },
        { franco_limit: '-1.00' },
        { franco_limit: '' },
        { units_per_box: 0 },
        { units_per_box: 2.5 },
        { shipping_cost_per_box: 'free' },
      ]) {
        const res = await call('PUT', '/admin/aplt/parameters', { values });
        expect(res.status, JSON.stringify(values)).toBe(400);
      }
      expect((await call('PUT', '/admin/aplt/parameters', {})).status).toBe(400);

      // null removes the row: the environment default applies again.
      const reset = await call('PUT', '/admin/aplt/parameters', {
        values: { franco_limit: null, shipping_cost_default: null, units_per_box: null },
        expected_updated_at: set.body.updated_at,
      });
      expect(reset.status).toBe(200);
      expect(reset.body.parameters.find((x: Item) => x.key === 'franco_limit')).toMatchObject({
        value: null,
        effective: '750.00',
      });
      expect(await quote('750.00')).toBe('12.99');
      const rows = await acmeDb.selectFrom('aplt_settings').select('key').execute();
      expect(rows.map((r) => r.key)).toEqual(['legacy_banner']);
      const audit = await acmeDb
        .selectFrom('aplt_audit_log')
        .select(['changes'])
        .where('action', '=', 'parameters.update')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.changes)).toEqual([
        {
          franco_limit: { from: null, to: '500.00' },
          shipping_cost_default: { from: null, to: '9.95' },
          units_per_box: { from: null, to: '100' },
        },
        {
          franco_limit: { from: '500.00', to: null },
          shipping_cost_default: { from: '9.95', to: null },
          units_per_box: { from: '100', to: null },
        },
      ]);
      await acmeDb.deleteFrom('aplt_settings').execute();
    });
  });

  describe('content group (read-only)', () => {
    const routes: Array<[string, FeatureKey]> = [
      ['/admin/aplt/content/cms-settings', 'cms'],
      ['/admin/aplt/content/footer', 'cms'],
      ['/admin/aplt/content/modules', 'cms_modules'],
      ['/admin/aplt/content/brands', 'brand_wizard'],
      ['/admin/aplt/content/pages', 'page_manager'],
      ['/admin/aplt/content/menus', 'menu_manager'],
      ['/admin/aplt/content/translations', 'translations'],
    ];

    beforeAll(async () => {
      const brand = await acmeDb
        .insertInto('aplt_brands')
        .values({ code: 'main', name: 'Acme Promo', is_default: true, primary_color: '#112233' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await acmeDb.insertInto('aplt_brands').values({ code: 'second', name: 'Acme Outlet' }).execute();
      await acmeDb
        .insertInto('aplt_cms_settings')
        .values([
          { brand_id: brand.id, key: 'company_name', value: 'Acme BV' },
          { brand_id: brand.id, key: 'iban', value: 'NL91ABNA0417164300' },
        ])
        .execute();
      for (let i = 1; i <= 12; i++)
        await acmeDb
          .insertInto('aplt_cms_pages')
          .values({
            brand_id: brand.id,
            slug: `pagina-${i}`,
            title_nl: `Pagina ${i}`,
            title_en: i % 2 ? `Page ${i}` : null,
            content_nl: '<p>Hallo</p>',
            status: i === 1 ? 'published' : 'draft',
            sort_order: i,
          })
          .execute();
      const menu = await acmeDb
        .insertInto('aplt_cms_menus')
        .values({ brand_id: brand.id, code: 'main', name: 'Hoofdmenu' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const top = await acmeDb
        .insertInto('aplt_cms_menu_items')
        .values({
          menu_id: menu.id,
          label_nl: 'Producten',
          label_en: 'Products',
          url: '/producten',
          sort_order: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await acmeDb
        .insertInto('aplt_cms_menu_items')
        .values({ menu_id: menu.id, parent_id: top.id, label_nl: 'Pennen', url: '/pennen', sort_order: 2 })
        .execute();
      const section = await acmeDb
        .insertInto('aplt_cms_footer_sections')
        .values({ brand_id: brand.id, title_nl: 'Service' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await acmeDb
        .insertInto('aplt_cms_footer_links')
        .values({ section_id: section.id, label_nl: 'Contact', label_de: 'Kontakt', url: '/contact' })
        .execute();
      await acmeDb
        .insertInto('aplt_modules')
        .values([
          { code: 'blog', name: 'Blog', feature_key: 'cms_modules' },
          { code: 'faq', name: 'Veelgestelde vragen' },
        ])
        .execute();
    });

    it("lists each feature's records with paging; 401 without a token, 403 without the feature, 400 for bad paging", async () => {
      for (const [url, feature] of routes) {
        delete licensed.acme;
        expect((await call('GET', url, undefined, { token: null })).status, url).toBe(401);
        licensed.acme = featureKeys.filter((f) => f !== feature);
        const refused = await call('GET', url);
        expect(refused.status, url).toBe(403);
        expect(refused.body.feature).toBe(feature);
        licensed.acme = [feature];
        const ok = await call('GET', url);
        expect(ok.status, url).toBe(200);
        expect(ok.body.count, url).toBeGreaterThan(0);
        expect(ok.body.data.length, url).toBe(Math.min(ok.body.count, 20));
        for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=x'])
          expect((await call('GET', `${url}?${q}`)).status, `${url}?${q}`).toBe(400);
      }
    });

    it('answers what the tables hold', async () => {
      const settings = await call('GET', '/admin/aplt/content/cms-settings?q=iban');
      expect(settings.body.data).toEqual([
        expect.objectContaining({ brand_code: 'main', key: 'iban', value: 'NL91ABNA0417164300' }),
      ]);
      const pages = await call('GET', '/admin/aplt/content/pages?limit=5&offset=10');
      expect(pages.body).toMatchObject({ count: 12, limit: 5, offset: 10 });
      expect(pages.body.data.map((p: Item) => p.slug)).toEqual(['pagina-11', 'pagina-12']);
      expect(pages.body.data[0]).toMatchObject({ content_length: { nl: 12, en: 0, de: 0 } });
      expect((await call('GET', '/admin/aplt/content/pages?status=published')).body.count).toBe(1);
      expect((await call('GET', '/admin/aplt/content/pages?q=pagina-1')).body.count).toBe(4); // 1, 10, 11, 12
      const menus = await call('GET', '/admin/aplt/content/menus');
      expect(menus.body.data[0]).toMatchObject({ code: 'main', brand_code: 'main' });
      expect(menus.body.data[0].items.map((i: Item) => [i.label_nl, i.parent_id === null])).toEqual([
        ['Producten', true],
        ['Pennen', false],
      ]);
      const footer = await call('GET', '/admin/aplt/content/footer');
      expect(footer.body.data[0].links).toEqual([
        expect.objectContaining({ label_nl: 'Contact', label_de: 'Kontakt' }),
      ]);
      const brands = await call('GET', '/admin/aplt/content/brands');
      expect(brands.body.data.map((b: Item) => [b.code, b.pages_count, b.settings_count])).toEqual([
        ['main', 12, 2],
        ['second', 0, 0],
      ]);
      const modules = await call('GET', '/admin/aplt/content/modules?q=blog');
      expect(modules.body.data).toEqual([expect.objectContaining({ code: 'blog', enabled_count: 0 })]);
      const missingEn = await call(
        'GET',
        '/admin/aplt/content/translations?source=cms_page&missing=en&limit=100',
      );
      expect(missingEn.body.count).toBe(6);
      expect(missingEn.body.data.every((t: Item) => t.en === null && t.field === 'title')).toBe(true);
      const menuTexts = await call('GET', '/admin/aplt/content/translations?source=cms_menu_item');
      expect(menuTexts.body.data.map((t: Item) => [t.nl, t.en])).toEqual([
        ['Producten', 'Products'],
        ['Pennen', null],
      ]);
      expect((await call('GET', '/admin/aplt/content/translations?q=kontakt')).body.data).toEqual([
        expect.objectContaining({ source: 'cms_footer_link', nl: 'Contact', de: 'Kontakt' }),
      ]);
      expect((await call('GET', '/admin/aplt/content/translations?source=products')).status).toBe(400);
      // Another tenant's content tables are its own.
      expect(
        (await call('GET', '/admin/aplt/content/pages', undefined, { tenant: 'globex' })).body.count,
      ).toBe(0);
    });
  });

  describe('price proposal of the line editor', () => {
    const propose = (body: object) => call('POST', '/admin/aplt/quotations/price-proposal', body);

    it('proposes what saving the line stores, with setup costs, VAT and the franco state', async () => {
      const p = await propose({ sku: '100-01', quantity: 250, technique_code: 'TAMPO', print_colours: 2 });
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      // 250 at the 100+ scale (1.50) + tampo 0.40 = 475.00; setup 2 colours x 45.00; 21% VAT.
      expect(p.body).toMatchObject({
        product: { id: cat.productId, sku: '100-01', name: 'Balpen Classic', variant_id: null },
        technique: { id: cat.techniqueId, code: 'TAMPO' },
        unit_price: '1.5000',
        unit_price_source: 'scale',
        print_unit_price: '0.4000',
        print_price_source: 'technique_pricing',
        setup_cost_total: '90.00',
        line_total: '475.00',
        line_total_with_setup: '565.00',
        vat_rate: '21.00',
        vat_category: 'S',
        vat_amount: '118.65',
        franco: {
          limit: '750.00',
          goods_value: '565.00',
          free_shipping: false,
          shipping_cost: '12.99',
          amount_to_free_shipping: '185.01',
        },
        currency: 'EUR',
      });
      expect(p.body.setup_costs).toEqual([
        expect.objectContaining({ quantity: 2, unit_cost: '45.0000', total: '90.00' }),
      ]);
      // Saving the proposed line gives the same amounts.
      const q = await call('POST', '/admin/aplt/quotations', {
        customer_id: cat.customerNl,
        lines: [p.body.line],
      });
      expect(q.status, JSON.stringify(q.body)).toBe(201);
      expect(q.body.lines[0]).toMatchObject({
        line_total: '475.00',
        unit_price: '1.5000',
        print_unit_price: '0.4000',
      });
      expect(q.body).toMatchObject({ setup_cost_total: '90.00', shipping_cost: '12.99' });

      // Franco counts the rest of the quotation: free only strictly above 750.00.
      const at = await propose({
        sku: '100-01',
        quantity: 250,
        technique_code: 'TAMPO',
        print_colours: 2,
        other_goods_value: '185.00',
      });
      expect(at.body.franco).toMatchObject({
        goods_value: '750.00',
        free_shipping: false,
        shipping_cost: '12.99',
        amount_to_free_shipping: '0.01',
      });
      const above = await propose({
        sku: '100-01',
        quantity: 250,
        technique_code: 'TAMPO',
        print_colours: 2,
        other_goods_value: '185.01',
      });
      expect(above.body.franco).toMatchObject({
        goods_value: '750.01',
        free_shipping: true,
        shipping_cost: '0.00',
        amount_to_free_shipping: null,
      });
    });

    it('follows the catalog: variants, positions, further-colour prices, overrides and reverse charge', async () => {
      const product = await acmeDb
        .selectFrom('aplt_products')
        .select('id')
        .where('sku', '=', '100-01')
        .executeTakeFirstOrThrow();
      await acmeDb
        .insertInto('aplt_product_variants')
        .values({ product_id: product.id, sku: '100-01.05', color_code: '05', color_name: 'Blauw' })
        .execute();
      const zeef = await acmeDb
        .insertInto('aplt_techniques')
        .values({ code: 'ZEEF', name_nl: 'Zeefdruk', max_colours: 4 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await acmeDb
        .insertInto('aplt_technique_pricing')
        .values([
          {
            technique_id: zeef.id,
            min_quantity: 1,
            price_per_unit: '0.5000',
            next_colour_price: '0.2000',
            area_to: '20',
          },
          {
            technique_id: zeef.id,
            min_quantity: 1,
            price_per_unit: '0.9000',
            next_colour_price: '0.3000',
            area_from: '20.01',
          },
        ])
        .execute();
      const pos = await acmeDb
        .insertInto('aplt_print_positions')
        .values({
          product_id: product.id,
          position_code: 'BARREL',
          position_name: 'Schacht',
          print_area: '40x8',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await acmeDb
        .insertInto('aplt_product_techniques')
        .values({ product_id: product.id, technique_id: zeef.id, print_position_id: pos.id, max_colours: 3 })
        .execute();

      // Variant SKU; 40x8 mm = 3.2 cm2 -> the small-area scale, 3 colours = 0.50 + 2 x 0.20.
      const v = await propose({
        sku: '100-01.05',
        quantity: 100,
        technique_id: Number(zeef.id),
        print_position: 'BARREL',
        print_colours: 3,
      });
      expect(v.status, JSON.stringify(v.body)).toBe(200);
      expect(v.body).toMatchObject({
        product: { sku: '100-01', variant_sku: '100-01.05', colour: 'Blauw' },
        print_position: { code: 'BARREL', print_area: '40x8' },
        print_area: '40x8',
        print_unit_price: '0.9000',
        technique: { code: 'ZEEF', max_colours: 3 },
        setup_costs: [],
      });
      expect(v.body.line).toMatchObject({ sku: '100-01.05', print_position: 'BARREL', print_area: '40x8' });
      // A larger print area takes the other scale: 0.90 + 2 x 0.30.
      const big = await propose({
        product_id: cat.productId,
        quantity: 100,
        technique_code: 'ZEEF',
        print_position_id: Number(pos.id),
        print_area: '100x30',
        print_colours: 3,
      });
      expect(big.body.print_unit_price).toBe('1.5000');
      // Overrides are taken as given.
      const given = await propose({
        sku: '100-01',
        quantity: 10,
        unit_price: '3.25',
        discount_percent: '10',
      });
      expect(given.body).toMatchObject({
        unit_price: '3.2500',
        unit_price_source: 'given',
        print_price_source: 'none',
        line_total: '29.25',
      });
      // A German business customer is reverse-charged.
      const de = await propose({ sku: '100-01', quantity: 10, customer_id: cat.customerDe });
      expect(de.body).toMatchObject({
        vat_rate: '0.00',
        vat_category: 'AE',
        reverse_charge: true,
        vat_amount: '0.00',
      });

      // Rules: what the catalog does not offer is a 422 naming the field.
      const refused: Array<[object, string]> = [
        [{ sku: 'NOPE-1', quantity: 1 }, 'sku'],
        [{ product_id: 999999, quantity: 1 }, 'product_id'],
        [{ sku: '100-01', product_id: 999999, quantity: 1 }, 'sku'],
        [{ sku: '100-01', quantity: 1, technique_code: 'NOPE' }, 'technique_code'],
        [{ sku: '100-01', quantity: 1, print_position: 'CAP' }, 'print_position'],
        // TAMPO is not linked to this product, which lists its techniques now.
        [{ sku: '100-01', quantity: 1, technique_code: 'TAMPO' }, 'technique_id'],
        [
          { sku: '100-01', quantity: 1, technique_code: 'ZEEF', print_position: 'BARREL', print_colours: 4 },
          'print_colours',
        ],
        [{ sku: '100-01', quantity: 1, customer_id: 999999 }, 'customer_id'],
      ];
      for (const [body, field] of refused) {
        const res = await propose(body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body, JSON.stringify(body)).toMatchObject({ type: 'unprocessable', field });
      }
      for (const body of [
        { quantity: 1 },
        { sku: '100-01' },
        { sku: '100-01', quantity: 0 },
        { sku: '100-01', quantity: 1.5 },
        { sku: '100-01', quantity: 1, unit_price: 1.5 },
        { sku: '100-01', quantity: 1, print_area: '50 by 30' },
        { sku: '100-01', quantity: 1, technique_id: 1, technique_code: 'ZEEF' },
        { sku: '100-01', quantity: 1, other_goods_value: '-5' },
      ]) {
        const res = await propose(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect(
        (
          await call(
            'POST',
            '/admin/aplt/quotations/price-proposal',
            { sku: '100-01', quantity: 1 },
            { token: null },
          )
        ).status,
      ).toBe(401);
      // globex has no such product: its catalog is its own.
      expect(
        (
          await call(
            'POST',
            '/admin/aplt/quotations/price-proposal',
            { sku: '100-01', quantity: 1 },
            { tenant: 'globex' },
          )
        ).status,
      ).toBe(422);
    });
  });
});
