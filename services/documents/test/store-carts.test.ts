import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { buildApp as buildAuthApp } from '@aplt/service-auth/app';
import { loadConfig as loadAuthConfig } from '@aplt/service-auth/config';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { customerToken, seedCatalog, tenantDbs, testEnv } from './fixtures';
import { addCustomer, adminClient, until, useTempStores } from './store-fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;
/** A cart line as the store API answers it. */
type CartItem = { sku: string; quantity: number; configuration?: { transaction_id: string } | null };

type Who = Awaited<ReturnType<typeof addCustomer>>;

/**
 * Carts of the storefront (issue #15) through the documents app with the proxy's assertion:
 * prices from the catalog at each line's quantity, the owner rule (404 for anyone else), limits,
 * the guest-cart carry-over at sign-in, and the quotation request (source web) with its audit row
 * and staff e-mail, exactly once also under concurrency.
 */
describe('store: carts and the quotation request', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let auth: Awaited<ReturnType<typeof buildAuthApp>>;
  let admin: ReturnType<typeof adminClient>;
  let jan: Who;
  let piet: Who;
  let loes: Who;
  let globexJan: Who;
  const host = 'acme.localhost';
  const aplt = () => tenantDbs(fleet, 'acme').aplt;

  const req = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { token?: string | undefined; body?: unknown; host?: string; raw?: string } = {},
  ) =>
    app.inject({
      method,
      url,
      ...(opts.raw !== undefined
        ? { payload: opts.raw }
        : opts.body !== undefined
          ? { payload: opts.body as object }
          : {}),
      headers: {
        ...viaProxy(opts.host ?? host),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      },
    });
  const newCart = async (token?: string) => {
    const res = await req('POST', '/store/carts', { token });
    expect([200, 201]).toContain(res.statusCode);
    return res.json().cart as { id: string; items: Item[] };
  };
  const add = (cartId: string, body: object, token?: string) =>
    req('POST', `/store/carts/${cartId}/line-items`, { body, token });
  const logo = (over: object = {}) => {
    const id = randomUUID();
    return {
      transaction_id: id,
      technique: 'TAMPO',
      position: 'FRONT',
      colors: ['#112233', '#445566'],
      proof_url: `http://modal.localhost:8080/api/transactions/${id}/pdf`,
      screenshot_url: `http://modal.localhost:8080/api/transactions/${id}/screenshot`,
      ...over,
    };
  };

  let stores: ReturnType<typeof useTempStores> | undefined;
  beforeAll(async () => {
    stores = useTempStores('carts');
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const env = { ...fleet.env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    app = await buildApp(deps, loadConfig(testEnv(env)));
    auth = await buildAuthApp(
      deps,
      loadAuthConfig({
        LOG_LEVEL: 'silent',
        ...testSecrets(),
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
        MAIL_PASSWORD: randomBytes(16).toString('hex'),
        MAIL_FROM_ADDRESS: 'shop@acme.localhost',
        SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      }),
    );
    await auth.ready();
    // Pen 100-01 (tiers 1: 2.00, 100: 1.50, 500: 1.20), pad print TAMPO (0.60 / 0.40 from 100, setup 45.00 per colour).
    const cat = await seedCatalog(aplt());
    const variant = await aplt()
      .insertInto('aplt_product_variants')
      .values({ product_id: cat.productId, sku: '100-01.005', color_name: 'Blauw', hex: '#0000ff' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(variant.id).toBeDefined();
    const front = await aplt()
      .insertInto('aplt_print_positions')
      .values({
        product_id: cat.productId,
        position_code: 'FRONT',
        position_name: 'Voorzijde',
        print_area: '40x10',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await aplt()
      .insertInto('aplt_print_positions')
      .values({
        product_id: cat.productId,
        position_code: 'BACK',
        position_name: 'Achterzijde',
        print_area: '40x10',
      })
      .execute();
    await aplt()
      .insertInto('aplt_product_techniques')
      .values({
        product_id: cat.productId,
        technique_id: cat.techniqueId,
        print_position_id: front.id,
        max_colours: 3,
      })
      .execute();
    // A second product, for lines of more than one product, in the other tenant too (its own catalog).
    await aplt()
      .insertInto('aplt_products')
      .values({
        sku: '200-02',
        supplier_code: '01',
        name_nl: 'Mok',
        name_en: 'Mug',
        retail_price_100: '3.2500',
      })
      .execute();
    await seedCatalog(tenantDbs(fleet, 'globex').aplt);

    const dbs = { commerce: tenantDbs(fleet, 'acme').commerce, aplt: aplt() };
    jan = await addCustomer(dbs, 'acme', { id: 'cus_jan', email: 'jan@bakker.test' });
    piet = await addCustomer(dbs, 'acme', { id: 'cus_piet', email: 'piet@visser.test' });
    // A shop account without an aplt customer record: the quotation is still theirs by e-mail.
    loes = await addCustomer(dbs, 'acme', { id: 'cus_loes', email: 'loes@smit.test', aplt: false });
    globexJan = await addCustomer(
      { commerce: tenantDbs(fleet, 'globex').commerce, aplt: tenantDbs(fleet, 'globex').aplt },
      'globex',
      { id: 'cus_jan', email: 'jan@bakker.test' },
    );
    const brand = await aplt()
      .insertInto('aplt_brands')
      .values({ code: 'acme', name: 'Acme', is_default: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await aplt()
      .insertInto('aplt_cms_settings')
      .values([
        { brand_id: brand.id, key: 'email', value: 'info@acme.test' },
        { brand_id: brand.id, key: 'quotations_email', value: 'verkoop@acme.test' },
      ])
      .execute();
    admin = adminClient(app, host, 'acme');
  });
  afterAll(async () => {
    await app?.close();
    await auth?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
    await stores?.remove();
  });

  it('prices lines from the catalog at their quantity (decimal strings), adds up the same product, changes and removes lines', async () => {
    const created = await req('POST', '/store/carts');
    expect(created.statusCode).toBe(201);
    const cart = created.json().cart;
    expect(cart).toMatchObject({
      status: 'open',
      customer: false,
      items: [],
      subtotal: '0.00',
      currency_code: 'eur',
    });
    expect(cart.id).toMatch(/^cart_[0-9a-f-]{36}$/);

    let res = await add(cart.id, { sku: '100-01', quantity: 250 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cart.items).toMatchObject([
      {
        sku: '100-01',
        title: 'Balpen Classic',
        quantity: 250,
        unit_price: '1.5000',
        subtotal: '375.00',
        configuration: null,
      },
    ]);
    // The same product again is the same line; at 500 pieces the next tier applies.
    res = await add(cart.id, { sku: '100-01', quantity: 250 });
    const [pen] = res.json().cart.items;
    expect(pen).toMatchObject({ quantity: 500, unit_price: '1.2000', subtotal: '600.00' });

    // A variant chosen on the product page, and a configured line (2 colours: setup 2 x 45.00).
    res = await add(cart.id, { sku: '100-01', variant_id: '100-01.005', quantity: 100 });
    expect(res.json().cart.items[1]).toMatchObject({
      sku: '100-01.005',
      color: 'Blauw',
      product_sku: '100-01',
    });
    const config = logo();
    res = await add(cart.id, { sku: '100-01', quantity: 100, configuration: config });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().cart;
    const configured = body.items[2];
    expect(configured).toMatchObject({
      quantity: 100,
      unit_price: '1.5000',
      print_unit_price: '0.4000',
      setup_cost_total: '90.00',
      subtotal: '190.00',
      configuration: {
        transaction_id: config.transaction_id,
        technique: 'TAMPO',
        technique_name: 'Tampondruk',
        position: 'FRONT',
        position_name: 'Voorzijde',
        colors: ['#112233', '#445566'],
        proof_url: config.proof_url,
        screenshot_url: config.screenshot_url,
      },
    });
    // 600.00 + 150.00 + 190.00 lines, 90.00 setup.
    expect(body).toMatchObject({
      item_count: 3,
      item_subtotal: '940.00',
      setup_cost_total: '90.00',
      subtotal: '1030.00',
    });
    // Adding the same logo transaction again is the same line (a repeated message from the modal).
    res = await add(cart.id, { sku: '100-01', quantity: 100, configuration: config });
    expect(res.json().cart.items).toHaveLength(3);

    res = await req('POST', `/store/carts/${cart.id}/line-items/${configured.id}`, { body: { quantity: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cart.items[2]).toMatchObject({
      quantity: 1,
      unit_price: '2.0000',
      print_unit_price: '0.6000',
    });
    res = await req('DELETE', `/store/carts/${cart.id}/line-items/${pen.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().cart.items.map((i: Item) => i.sku)).toEqual(['100-01.005', '100-01']);
    expect((await req('DELETE', `/store/carts/${cart.id}/line-items/${pen.id}`)).statusCode).toBe(404);
    // English titles on request.
    const mug = await add(cart.id, { sku: '200-02', quantity: 10 });
    expect(mug.statusCode).toBe(200);
    expect((await req('GET', `/store/carts/${cart.id}?lang=en`)).json().cart.items[2].title).toBe('Mug');
  });

  it('refuses bad input with a 4xx naming the field, never a 500', async () => {
    const cart = await newCart();
    const line = (body: object) => add(cart.id, body);
    const cases: Array<[object | string, number, string?]> = [
      [{ sku: '100-01', quantity: 0 }, 400],
      [{ sku: '100-01', quantity: 1_000_001 }, 400],
      [{ sku: '100-01', quantity: 1.5 }, 400],
      [{ sku: '100-01', quantity: '10' }, 400],
      [{ sku: '', quantity: 1 }, 400],
      [{ sku: 'x'.repeat(101), quantity: 1 }, 400],
      [{ sku: '100-01', quantity: 1, price: '0.01' }, 400],
      [{ sku: '100-01', quantity: 1, configuration: logo({ proof_url: 'javascript:alert(1)' }) }, 400],
      [
        { sku: '100-01', quantity: 1, configuration: logo({ screenshot_url: 'http://u:p@evil.test/x.png' }) },
        400,
      ],
      [{ sku: '100-01', quantity: 1, configuration: logo({ transaction_id: 'not-a-uuid' }) }, 400],
      // File links must be the transaction's own proof and screenshot.
      [
        { sku: '100-01', quantity: 1, configuration: logo({ proof_url: 'https://evil.test/phish.pdf' }) },
        400,
      ],
      [
        {
          sku: '100-01',
          quantity: 1,
          configuration: logo({
            screenshot_url: `http://modal.localhost/api/transactions/${randomUUID()}/screenshot`,
          }),
        },
        400,
      ],
      [{ sku: '100-01', quantity: 1, configuration: logo({ colors: ['red'] }) }, 400],
      ['{"sku":"100-01\\u0000","quantity":1}', 400],
      [{ sku: '999-99', quantity: 1 }, 422, 'sku'],
      [{ sku: '100-01', variant_id: '200-02', quantity: 1 }, 422, 'variant_id'],
      [{ sku: '100-01', quantity: 1, configuration: logo({ position: 'BACK' }) }, 422, 'technique_id'],
      [{ sku: '100-01', quantity: 1, configuration: logo({ technique: 'NOPE' }) }, 422, 'technique_code'],
      [
        {
          sku: '100-01',
          quantity: 1,
          configuration: logo({ colors: ['#000000', '#111111', '#222222', '#333333'] }),
        },
        422,
        'print_colours',
      ],
    ];
    for (const [body, status, field] of cases) {
      const res =
        typeof body === 'string'
          ? await req('POST', `/store/carts/${cart.id}/line-items`, { raw: body })
          : await line(body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      if (field) expect(res.json().field).toBe(field);
      expect(res.json().type).toBe(status === 400 ? 'invalid_data' : 'unprocessable');
    }
    expect((await req('GET', '/store/carts/cart_nope')).statusCode).toBe(400);
    expect((await req('GET', `/store/carts/cart_${randomUUID()}`)).statusCode).toBe(404);
    expect(
      (
        await req('POST', `/store/carts/${cart.id}/line-items/cali_${'0'.repeat(32)}`, {
          body: { quantity: 2 },
        })
      ).statusCode,
    ).toBe(404);
    // Oversize body: the service's 413, read to its end.
    const big = await req('POST', `/store/carts/${cart.id}/line-items`, {
      raw: JSON.stringify({ sku: 'x'.repeat(3 * 1024 * 1024), quantity: 1 }),
    });
    expect(big.statusCode).toBe(413);
    // Nothing of it landed.
    expect((await req('GET', `/store/carts/${cart.id}`)).json().cart.items).toEqual([]);
  });

  it('holds at most 50 lines', async () => {
    const cart = await newCart();
    for (let i = 0; i < 50; i++) {
      const res = await add(cart.id, {
        sku: '100-01',
        quantity: 1,
        configuration: logo({ colors: ['#000000'] }),
      });
      expect(res.statusCode).toBe(200);
    }
    const over = await add(cart.id, { sku: '200-02', quantity: 1 });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ type: 'unprocessable', max_lines: 50 });
  });

  it("a customer's cart answers only to that customer's token: 404 for guests, other customers and other tenants", async () => {
    const created = await req('POST', '/store/carts', { token: jan.token });
    expect(created.statusCode).toBe(201);
    const cart = created.json().cart;
    expect(cart.customer).toBe(true);
    // One open cart per customer: asking again gives the same cart.
    const again = await req('POST', '/store/carts', { token: jan.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().cart.id).toBe(cart.id);
    expect((await add(cart.id, { sku: '100-01', quantity: 5 }, jan.token)).statusCode).toBe(200);
    expect((await req('GET', '/store/carts/mine', { token: jan.token })).json().cart.id).toBe(cart.id);
    expect((await req('GET', '/store/carts/mine', { token: piet.token })).json().cart).toBeNull();
    const lineId = (await req('GET', `/store/carts/${cart.id}`, { token: jan.token })).json().cart.items[0]
      .id;

    for (const [who, token, h] of [
      ['a guest', undefined, host],
      ['Piet', piet.token, host],
      ['a forged token', `${jan.token.slice(0, -4)}AAAA`, host],
      ['Jan of globex', globexJan.token, 'globex.localhost'],
      ["Jan's token on globex", jan.token, 'globex.localhost'],
    ] as const) {
      const o = { token, host: h };
      const tries = [
        await req('GET', `/store/carts/${cart.id}`, o),
        await req('POST', `/store/carts/${cart.id}/line-items`, {
          ...o,
          body: { sku: '100-01', quantity: 1 },
        }),
        await req('POST', `/store/carts/${cart.id}/line-items/${lineId}`, { ...o, body: { quantity: 9 } }),
        await req('DELETE', `/store/carts/${cart.id}/line-items/${lineId}`, o),
        await req('POST', `/store/carts/${cart.id}/quote-request`, {
          ...o,
          body: { name: 'X', email: 'x@evil.test', company: 'Evil' },
        }),
      ];
      // A token that is no valid customer of this tenant is refused as such (401, like every
      // customer route); a valid one of someone else finds no such cart (404).
      const invalid = who === 'a forged token' || who === "Jan's token on globex";
      for (const res of tries) {
        expect(res.statusCode, `${who}: ${res.body}`).toBe(invalid ? 401 : 404);
        expect(res.json().type).toBe(invalid ? 'unauthorized' : 'not_found');
      }
      if (token && h === host) {
        const steal = await req('POST', `/store/carts/${cart.id}/customer`, o);
        // A forged token is no customer (401); a real one of someone else finds no such cart.
        expect(steal.statusCode, who).toBe(who === 'a forged token' ? 401 : 404);
      }
    }
    // Untouched.
    const mine = (await req('GET', `/store/carts/${cart.id}`, { token: jan.token })).json().cart;
    expect(mine.items).toMatchObject([{ id: lineId, quantity: 5 }]);
    expect(mine.status).toBe('open');
    // A guest cart is reachable by its id alone, with or without a token; of another tenant, not at all.
    const guest = await newCart();
    expect((await req('GET', `/store/carts/${guest.id}`, { token: piet.token })).statusCode).toBe(200);
    expect((await req('GET', `/store/carts/${guest.id}`, { host: 'globex.localhost' })).statusCode).toBe(404);
    // Transfer needs a customer token.
    expect((await req('POST', `/store/carts/${guest.id}/customer`)).statusCode).toBe(401);
  });

  it('carries a guest cart over at sign-in: it becomes the customer’s, or merges into their open cart, idempotently', async () => {
    // Loes has no cart: the guest cart becomes hers, and no longer answers to a guest.
    const g1 = await newCart();
    await add(g1.id, { sku: '100-01', quantity: 10 });
    let res = await req('POST', `/store/carts/${g1.id}/customer`, { token: loes.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cart).toMatchObject({ id: g1.id, customer: true });
    expect((await req('GET', `/store/carts/${g1.id}`)).statusCode).toBe(404);
    expect((await req('POST', `/store/carts/${g1.id}/customer`, { token: loes.token })).json().cart.id).toBe(
      g1.id,
    );

    // Next visit as a guest: a new guest cart, merged into her open cart at the next sign-in.
    const g2 = await newCart();
    const config = logo({ colors: ['#000000'] });
    await add(g2.id, { sku: '100-01', quantity: 15 });
    await add(g2.id, { sku: '200-02', quantity: 3 });
    await add(g2.id, { sku: '100-01', quantity: 100, configuration: config });
    res = await req('POST', `/store/carts/${g2.id}/customer`, { token: loes.token });
    expect(res.statusCode, res.body).toBe(200);
    const merged = res.json().cart;
    expect(merged.id).toBe(g1.id);
    expect(
      merged.items.map((i: CartItem) => [i.sku, i.quantity, i.configuration?.transaction_id ?? null]),
    ).toEqual([
      ['100-01', 25, null],
      ['200-02', 3, null],
      ['100-01', 100, config.transaction_id],
    ]);
    // Again (a retried sign-in): the same cart, the same lines.
    res = await req('POST', `/store/carts/${g2.id}/customer`, { token: loes.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().cart).toEqual(merged);
    // The merged guest cart is nobody else's, and no longer changes.
    expect((await req('GET', `/store/carts/${g2.id}`)).statusCode).toBe(404);
    expect((await req('POST', `/store/carts/${g2.id}/customer`, { token: piet.token })).statusCode).toBe(404);
    expect((await add(g2.id, { sku: '100-01', quantity: 1 }, loes.token)).statusCode).toBe(409);

    // Two guest carts carried over at once by one customer: one becomes the cart, the other merges into it.
    const [a, b] = [await newCart(), await newCart()];
    await add(a.id, { sku: '100-01', quantity: 1 });
    await add(b.id, { sku: '100-01', quantity: 2 });
    const both = await Promise.all([
      req('POST', `/store/carts/${a.id}/customer`, { token: piet.token }),
      req('POST', `/store/carts/${b.id}/customer`, { token: piet.token }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const final = (await req('GET', '/store/carts/mine', { token: piet.token })).json().cart;
    expect(both.map((r) => r.json().cart.id)).toContain(final.id);
    expect(final.items).toMatchObject([{ sku: '100-01', quantity: 3 }]);
  });

  it("a guest's quotation request: one quotation (source web) with the configured lines, the cart completed, audited, staff e-mailed", async () => {
    const cart = await newCart();
    const config = logo({ colors: ['#c00000'] });
    await add(cart.id, { sku: '100-01', quantity: 250 });
    await add(cart.id, { sku: '100-01', quantity: 100, configuration: config });
    const missing = await req('POST', `/store/carts/${cart.id}/quote-request`, { body: { name: 'Els' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues.map((i: Item) => i.path)).toEqual(['body.email', 'body.company']);
    const badMail = await req('POST', `/store/carts/${cart.id}/quote-request`, {
      body: { name: 'Els', email: 'nope', company: 'De Vries BV' },
    });
    expect(badMail.statusCode).toBe(400);

    const res = await req('POST', `/store/carts/${cart.id}/quote-request`, {
      body: {
        name: 'Els de Vries',
        email: 'els@devries.test',
        company: 'De Vries BV',
        phone: '+31 6 1234 5678',
        remark: 'Graag levering voor 1 maart',
        lang: 'en',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json().quotation;
    expect(q).toMatchObject({
      quotation_number: expect.stringMatching(/^Q-\d{4}-\d{4}$/),
      status: 'open',
      source_code: 'web',
      customer_email: 'els@devries.test',
      customer_name: 'Els de Vries',
      customer_company: 'De Vries BV',
      subtotal: '565.00',
      setup_cost_total: '45.00',
    });
    expect(q.lines).toMatchObject([
      { sku: '100-01', quantity: 250, unit_price: '1.5000', technique_code: null, logo_transaction_id: null },
      {
        sku: '100-01',
        quantity: 100,
        technique_code: 'TAMPO',
        print_position: 'FRONT',
        print_unit_price: '0.4000',
        logo_transaction_id: config.transaction_id,
        line_total: '190.00',
      },
    ]);
    expect(JSON.stringify(q)).not.toContain('internal_notes');

    // The admin sees it with source web, the configured line with its logo transaction and links.
    const full = await admin('GET', `/admin/aplt/quotations/${q.id}`);
    expect(full).toMatchObject({ source_code: 'web', notes: 'Graag levering voor 1 maart', language: 'en' });
    expect(full.metadata).toMatchObject({ cart_id: cart.id, phone: '+31 6 1234 5678' });
    expect(full.lines[1].metadata).toMatchObject({
      proof_url: config.proof_url,
      screenshot_url: config.screenshot_url,
    });
    expect(full.lines[1].setup_costs).toHaveLength(1);
    const list = await admin('GET', '/admin/aplt/quotations?source_code=web');
    expect(list.data.map((x: Item) => x.id)).toContain(q.id);

    // The cart is completed and read-only; a second request names the same quotation.
    const after = (await req('GET', `/store/carts/${cart.id}`)).json().cart;
    expect(after).toMatchObject({
      status: 'completed',
      quotation: { id: q.id, quotation_number: q.quotation_number },
    });
    const second = await req('POST', `/store/carts/${cart.id}/quote-request`, {
      body: { name: 'Els', email: 'els@devries.test', company: 'De Vries BV' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      type: 'conflict',
      quotation: { id: q.id, quotation_number: q.quotation_number },
    });
    for (const write of [
      await add(cart.id, { sku: '100-01', quantity: 1 }),
      await req('POST', `/store/carts/${cart.id}/line-items/${after.items[0].id}`, { body: { quantity: 3 } }),
      await req('DELETE', `/store/carts/${cart.id}/line-items/${after.items[0].id}`),
    ]) {
      expect(write.statusCode).toBe(409);
    }

    const audit = await aplt()
      .selectFrom('aplt_audit_log')
      .selectAll()
      .where('action', '=', 'quotation.request')
      .where('entity_id', '=', String(q.id))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor: 'els@devries.test',
      actor_type: 'anonymous',
      entity_type: 'quotation',
    });
    expect(audit.changes).toMatchObject({
      quotation_number: q.quotation_number,
      cart_id: cart.id,
      source_code: 'web',
    });

    const mail = await until('the staff e-mail', async () =>
      sink.messages.find((m) => m.parsed.subject?.includes(q.quotation_number)),
    );
    expect(mail.envelope.to).toEqual(['verkoop@acme.test']);
    expect(mail.parsed.text).toContain('Els de Vries, De Vries BV <els@devries.test>');
    expect(mail.parsed.text).toContain(
      `100 x 100-01 Balpen Classic (TAMPO at FRONT, logo ${config.transaction_id})`,
    );
    expect(mail.parsed.text).toContain('Phone: +31 6 1234 5678');
  });

  it("a signed-in customer's request belongs to the customer and shows in their quotations", async () => {
    const cart = (await req('POST', '/store/carts', { token: jan.token })).json().cart;
    await add(cart.id, { sku: '200-02', quantity: 40 }, jan.token);
    const res = await req('POST', `/store/carts/${cart.id}/quote-request`, { token: jan.token, body: {} });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json().quotation;
    expect(q).toMatchObject({
      source_code: 'web',
      customer_email: 'jan@bakker.test',
      customer_company: 'cus_jan BV',
    });
    const full = await admin('GET', `/admin/aplt/quotations/${q.id}`);
    expect(full.customer_id).toBe(jan.apltId);
    const mine = (await req('GET', '/store/aplt/quotes', { token: jan.token })).json();
    expect(mine.data.map((x: Item) => x.id)).toContain(q.id);
    const pietsQuotes = (await req('GET', '/store/aplt/quotes', { token: piet.token })).json();
    expect(pietsQuotes.data.map((x: Item) => x.id)).not.toContain(q.id);
    // A shop account without a customer record (and without names in its profile) gets one from
    // what the request says; the quotation is the account's.
    const loesCart = (await req('GET', '/store/carts/mine', { token: loes.token })).json().cart;
    const lq = await req('POST', `/store/carts/${loesCart.id}/quote-request`, {
      token: loes.token,
      body: { name: 'Loes van der Smit', company: 'Smit VOF', phone: '030 123 4567' },
    });
    expect(lq.statusCode, lq.body).toBe(201);
    expect(lq.json().quotation).toMatchObject({
      customer_email: 'loes@smit.test',
      customer_name: 'Loes van der Smit',
      customer_company: 'Smit VOF',
    });
    const loesRecord = await aplt()
      .selectFrom('aplt_customers')
      .selectAll()
      .where('email', '=', 'loes@smit.test')
      .executeTakeFirstOrThrow();
    expect(loesRecord).toMatchObject({
      first_name: 'Loes',
      last_name: 'van der Smit',
      company: 'Smit VOF',
      phone: '030 123 4567',
      commerce_customer_id: 'cus_loes',
    });
    expect((await admin('GET', `/admin/aplt/quotations/${lq.json().quotation.id}`)).customer_id).toBe(
      Number(loesRecord.id),
    );
    const loesQuotes = (await req('GET', '/store/aplt/quotes', { token: loes.token })).json();
    expect(loesQuotes.data.map((x: Item) => x.id)).toEqual([lq.json().quotation.id]);
    // After the request the customer gets a fresh cart.
    const next = await req('POST', '/store/carts', { token: jan.token });
    expect(next.statusCode).toBe(201);
    expect(next.json().cart.id).not.toBe(cart.id);
    // An empty cart is no request.
    const empty = await req('POST', `/store/carts/${next.json().cart.id}/quote-request`, {
      token: jan.token,
      body: {},
    });
    expect(empty.statusCode).toBe(422);
  });

  it("a signed-in customer's request makes their customer record from the shop account, once: a second request reuses it, a guest's makes none", async () => {
    const commerce = tenantDbs(fleet, 'acme').commerce;
    await commerce
      .insertInto('customer')
      .values({
        id: 'cus_rianne',
        email: 'Rianne@Reiziger.test',
        first_name: 'Rianne',
        last_name: 'Reiziger',
        company_name: 'Reiziger Events BV',
        phone: '+31 6 1111 2222',
        has_account: true,
        metadata: JSON.stringify({ preferred_language: 'de' }),
      })
      .execute();
    const token = await customerToken('acme', 'cus_rianne');
    const records = () =>
      aplt()
        .selectFrom('aplt_customers')
        .selectAll()
        .where(sql`lower(email)`, '=', 'rianne@reiziger.test')
        .execute();
    expect(await records()).toEqual([]);

    const first = (await req('POST', '/store/carts', { token })).json().cart;
    await add(first.id, { sku: '200-02', quantity: 25 }, token);
    // The request's own words do not overrule the account's names in the record.
    const res = await req('POST', `/store/carts/${first.id}/quote-request`, {
      token,
      body: { remark: 'Graag snel', name: 'Someone Else' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [record, ...more] = await records();
    expect(more).toEqual([]);
    expect(record).toMatchObject({
      email: 'rianne@reiziger.test',
      first_name: 'Rianne',
      last_name: 'Reiziger',
      company: 'Reiziger Events BV',
      phone: '+31 6 1111 2222',
      language: 'de',
      commerce_customer_id: 'cus_rianne',
      is_active: true,
    });
    expect(record!.customer_number).toMatch(/^K\d{4,}$/);
    const q = await admin('GET', `/admin/aplt/quotations/${res.json().quotation.id}`);
    expect(q).toMatchObject({
      customer_id: Number(record!.id),
      customer_email: 'rianne@reiziger.test',
      customer_company: 'Reiziger Events BV',
    });
    // Staff see it as an ordinary record, with the quotation among its documents.
    const staffView = await admin('GET', `/admin/aplt/customers/${record!.id}`);
    expect(staffView.document_counts.quotations).toBe(1);
    const audit = await aplt()
      .selectFrom('aplt_audit_log')
      .selectAll()
      .where('entity_type', '=', 'customer')
      .where('entity_id', '=', String(record!.id))
      .execute();
    expect(audit).toMatchObject([
      { action: 'customer.create', actor_type: 'customer', actor: 'rianne@reiziger.test' },
    ]);

    // A second request reuses the record.
    const second = (await req('POST', '/store/carts', { token })).json().cart;
    await add(second.id, { sku: '100-01', quantity: 100 }, token);
    const again = await req('POST', `/store/carts/${second.id}/quote-request`, { token, body: {} });
    expect(again.statusCode, again.body).toBe(201);
    expect((await admin('GET', `/admin/aplt/quotations/${again.json().quotation.id}`)).customer_id).toBe(
      Number(record!.id),
    );
    expect(await records()).toHaveLength(1);
    const mine = (await req('GET', '/store/aplt/quotes', { token })).json();
    expect(mine.data.map((x: Item) => x.id).sort()).toEqual(
      [res.json().quotation.id, again.json().quotation.id].sort(),
    );

    // A guest's request stays without a customer record (staff decide) and makes none.
    const guest = await newCart();
    await add(guest.id, { sku: '200-02', quantity: 5 });
    const g = await req('POST', `/store/carts/${guest.id}/quote-request`, {
      body: { name: 'Guus Gast', email: 'guus@gast.test', company: 'Gast BV' },
    });
    expect(g.statusCode, g.body).toBe(201);
    expect((await admin('GET', `/admin/aplt/quotations/${g.json().quotation.id}`)).customer_id).toBeNull();
    expect(
      await aplt().selectFrom('aplt_customers').select('id').where('email', '=', 'guus@gast.test').execute(),
    ).toEqual([]);
  });

  it('concurrent first requests of one signed-in customer make one customer record and name it in every quotation', async () => {
    const commerce = tenantDbs(fleet, 'acme').commerce;
    await commerce
      .insertInto('customer')
      .values({
        id: 'cus_tess',
        email: 'tess@tuin.test',
        first_name: 'Tess',
        company_name: 'Tuin BV',
        has_account: true,
      })
      .execute();
    const token = await customerToken('acme', 'cus_tess');
    // Guest carts answer to anyone with their id, so one customer can request several at once.
    const carts = await Promise.all(Array.from({ length: 6 }, () => newCart()));
    for (const c of carts) await add(c.id, { sku: '200-02', quantity: 10 });
    const answers = await Promise.all(
      carts.map((c) => req('POST', `/store/carts/${c.id}/quote-request`, { token, body: {} })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const records = await aplt()
      .selectFrom('aplt_customers')
      .select(['id', 'customer_number', 'company'])
      .where('email', '=', 'tess@tuin.test')
      .execute();
    expect(records).toMatchObject([{ company: 'Tuin BV' }]);
    const ids = await aplt()
      .selectFrom('aplt_quotation_headers')
      .select('customer_id')
      .where(
        'id',
        'in',
        answers.map((r) => r.json().quotation.id),
      )
      .execute();
    expect(ids.map((r) => Number(r.customer_id))).toEqual(Array(6).fill(Number(records[0]!.id)));
  });

  it('concurrency: parallel line adds all land; parallel quotation requests make exactly one quotation', async () => {
    const cart = await newCart();
    const configs = Array.from({ length: 8 }, () => logo({ colors: ['#000000'] }));
    const adds = await Promise.all([
      ...configs.map((c) => add(cart.id, { sku: '100-01', quantity: 10, configuration: c })),
      ...Array.from({ length: 6 }, () => add(cart.id, { sku: '200-02', quantity: 5 })),
    ]);
    expect(adds.map((r) => r.statusCode)).toEqual(Array(14).fill(200));
    const items = (await req('GET', `/store/carts/${cart.id}`)).json().cart.items;
    expect(items).toHaveLength(9);
    expect(
      items
        .filter((i: CartItem) => i.configuration)
        .map((i: CartItem) => i.configuration!.transaction_id)
        .sort(),
    ).toEqual(configs.map((c) => c.transaction_id).sort());
    expect(items.find((i: Item) => i.sku === '200-02').quantity).toBe(30);

    const before = await aplt()
      .selectFrom('aplt_quotation_headers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const body = { name: 'Kim', email: 'kim@jansen.test', company: 'Jansen BV' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => req('POST', `/store/carts/${cart.id}/quote-request`, { body })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409]);
    const id = answers.find((r) => r.statusCode === 201)!.json().quotation.id;
    for (const r of answers.filter((x) => x.statusCode === 409)) expect(r.json().quotation.id).toBe(id);
    const after = await aplt()
      .selectFrom('aplt_quotation_headers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(1);
    const lines = await aplt()
      .selectFrom('aplt_quotation_lines')
      .select('id')
      .where('quotation_id', '=', id)
      .execute();
    expect(lines).toHaveLength(9);
  });
});
