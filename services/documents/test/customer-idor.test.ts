import { randomBytes } from 'node:crypto';
import { sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildAuthApp } from '@aplt/service-auth/app';
import { loadConfig as loadAuthConfig } from '@aplt/service-auth/config';
import {
  createTestFleet,
  createTestRedis,
  type HttpResponse,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { seedCatalog, tenantDbs, testEnv } from './fixtures';
import { adminClient, formBody, invoicedOrder, jpegPhoto, pngPhoto, useTempStores } from './store-fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

const PASSWORD = 'Idor-Password-2026';

/** What one customer owns: the ids another customer tries. */
interface Owned {
  name: string;
  host: string;
  email: string;
  cookie: string;
  apltId: number;
  quoteId: number;
  /** The accepted quotation the order came from. */
  acceptedQuoteId: number;
  orderId: number;
  invoiceId: number;
  invoiceLineId: number;
  returnId: number;
  photoId: number;
  /** The customer's open cart and its one line. */
  cartId: string;
  cartLineId: string;
}

/**
 * The IDOR suite of issue #15: two customers of acme and one of globex (with the same e-mail as
 * one of acme's) each own a quotation, an order, an invoice, a return with a photo and an avatar.
 * Through the real proxy (Caddy, forward auth by the access service, the real auth service for
 * sign-in and the profile), every customer route is called by each customer with the others'
 * ids: always 404 (never 403, never the other's data), and lists hold only the caller's records.
 */
describe("customer routes: nobody reaches anyone else's records (through the proxy)", () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let proxy: TestProxy;
  let documents: Awaited<ReturnType<typeof buildApp>>;
  const who: Record<'a' | 'b' | 'c', Owned> = {} as never;

  const call = (
    as: Pick<Owned, 'host' | 'cookie'>,
    method: string,
    path: string,
    body?: object | Buffer,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse> =>
    proxy.request(as.host, path, { method, body, headers: { cookie: as.cookie, ...headers } });

  async function signUp(host: string, email: string): Promise<string> {
    const reg = await proxy.request(host, '/store/customers', {
      method: 'POST',
      body: { email, password: PASSWORD },
    });
    expect(reg.status, reg.text()).toBe(201);
    // The verification link is what the auth tests follow; here the e-mail counts as verified.
    const tenant = host.split('.')[0]!;
    await sql`update customer set metadata = metadata || jsonb_build_object('email_verified_at', now()) where email = ${email}`.execute(
      tenantDbs(fleet, tenant).commerce,
    );
    const login = await proxy.request(host, '/auth/customer/emailpass', {
      method: 'POST',
      body: { email, password: PASSWORD },
    });
    expect(login.status, login.text()).toBe(200);
    const set = [login.headers['set-cookie']].flat().find((c) => c?.startsWith('_commerce_jwt='));
    expect(set).toBeDefined();
    return set!.split(';')[0]!;
  }

  async function owner(name: string, tenant: string, email: string): Promise<Owned> {
    const host = `${tenant}.localhost`;
    const cookie = await signUp(host, email);
    const aplt = tenantDbs(fleet, tenant).aplt;
    const apltId = Number(
      (
        await aplt
          .insertInto('aplt_customers')
          .values({ email, company: `${name} BV`, country: 'NL' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const admin = adminClient(documents, host, tenant);
    const quote = await admin('POST', '/admin/aplt/quotations', {
      customer_id: apltId,
      lines: [{ line_type: 'product', description: `${name}'s quote`, quantity: 1, unit_price: '9.00' }],
    });
    const inv = await invoicedOrder(admin, apltId, [5]);
    const line = inv.invoiceLines.find((l) => l.line_type === 'product')!;
    const form = formBody([
      {
        name: 'data',
        value: JSON.stringify({
          invoice_id: inv.invoiceId,
          lines: [{ invoice_line_id: line.id, quantity: 1, reason: 'damaged' }],
        }),
      },
      { name: 'photos', filename: 'p.jpg', contentType: 'image/jpeg', data: await jpegPhoto() },
    ]);
    const ret = await call({ host, cookie }, 'POST', '/store/aplt/returns', form.body, {
      'content-type': form.contentType,
    });
    expect(ret.status, ret.text()).toBe(201);
    const avatar = formBody([
      { name: 'file', filename: 'a.png', contentType: 'image/png', data: await pngPhoto() },
    ]);
    const av = await call({ host, cookie }, 'PUT', '/store/customers/me/avatar', avatar.body, {
      'content-type': avatar.contentType,
    });
    expect(av.status, av.text()).toBe(200);
    const cart = await call({ host, cookie }, 'POST', '/store/carts');
    expect(cart.status, cart.text()).toBe(201);
    const cartId = cart.json().cart.id as string;
    const withLine = await call({ host, cookie }, 'POST', `/store/carts/${cartId}/line-items`, {
      sku: '100-01',
      quantity: 25,
    });
    expect(withLine.status, withLine.text()).toBe(200);
    return {
      name,
      host,
      email,
      cookie,
      apltId,
      quoteId: Number(quote.id),
      acceptedQuoteId: inv.quotationId,
      orderId: inv.orderId,
      invoiceId: inv.invoiceId,
      invoiceLineId: line.id,
      returnId: ret.json().id,
      photoId: ret.json().photos[0].id,
      cartId,
      cartLineId: withLine.json().cart.items[0].id,
    };
  }

  let stores: ReturnType<typeof useTempStores> | undefined;
  beforeAll(async () => {
    stores = useTempStores('idor');
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    // globex's ids start far above acme's, so an acme id never names a globex record by accident.
    const g = tenantDbs(fleet, 'globex').aplt;
    for (const table of [
      'aplt_customers',
      'aplt_quotation_headers',
      'aplt_order_headers',
      'aplt_invoice_headers',
      'aplt_invoice_lines',
      'aplt_returns',
      'aplt_return_photos',
    ]) {
      await sql`alter table ${sql.table(table)} alter column id restart with 100000`.execute(g);
    }
    // A product to put in carts, in each tenant's own catalog.
    await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    await seedCatalog(g);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const env = { ...fleet.env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    documents = await buildApp(deps, loadConfig(testEnv(env)));
    const auth = await buildAuthApp(
      deps,
      loadAuthConfig({
        LOG_LEVEL: 'silent',
        ...testSecrets(),
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
        MAIL_PASSWORD: randomBytes(16).toString('hex'),
        SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
        LOGIN_RATE_MAX: '100',
      }),
    );
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...testSecrets() }),
      auth,
      documents,
    });
    who.a = await owner('Anna', 'acme', 'anna@customer.test');
    who.b = await owner('Bram', 'acme', 'bram@customer.test');
    // Same e-mail as Anna, in another tenant: a different customer altogether.
    who.c = await owner('Anna-globex', 'globex', 'anna@customer.test');
  });
  afterAll(async () => {
    await proxy?.stop();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
    await stores?.remove();
  });

  /** Every id-bearing read of a customer route, for the records of `t`. */
  const reads = (t: Owned): Array<[string, string]> => [
    ['quote', `/store/aplt/quotes/${t.quoteId}`],
    ['order', `/store/aplt/orders/${t.orderId}`],
    ['invoice', `/store/aplt/invoices/${t.invoiceId}`],
    ['invoice PDF', `/store/aplt/invoices/pdf?id=${t.invoiceId}`],
    ['return', `/store/aplt/returns/${t.returnId}`],
    ['return photo', `/store/aplt/returns/${t.returnId}/photos/${t.photoId}`],
    ['cart', `/store/carts/${t.cartId}`],
  ];

  it('each customer reaches its own records (the routes work)', async () => {
    for (const me of Object.values(who)) {
      for (const [what, path] of reads(me)) {
        const res = await call(me, 'GET', path);
        expect(res.status, `${me.name} ${what}`).toBe(200);
      }
      const profile = await call(me, 'GET', '/store/customers/me');
      expect(profile.json().customer.email).toBe(me.email);
      expect((await call(me, 'GET', '/store/customers/me/avatar')).headers['content-type']).toBe('image/png');
    }
  });

  it("answers 404 for every other customer's id, in the same tenant and across tenants, never 403", async () => {
    const pairs: Array<[Owned, Owned]> = [
      [who.a, who.b],
      [who.b, who.a],
      [who.c, who.a],
      [who.c, who.b],
      [who.a, who.c],
      [who.b, who.c],
    ];
    for (const [me, other] of pairs) {
      for (const [what, path] of reads(other)) {
        const res = await call(me, 'GET', path);
        expect(res.status, `${me.name} -> ${other.name}'s ${what}`).toBe(404);
        expect(res.json().type).toBe('not_found');
        expect(res.text()).not.toContain(other.email);
      }
      const accept = await call(me, 'POST', `/store/aplt/quotes/${other.quoteId}/accept`);
      expect(accept.status, `${me.name} accepts ${other.name}'s quote`).toBe(404);
      const reject = await call(me, 'POST', `/store/aplt/quotes/${other.quoteId}/reject`, {
        reason: 'not mine',
      });
      expect(reject.status, `${me.name} rejects ${other.name}'s quote`).toBe(404);
      // A return against the other's invoice (and its line) is refused as not found, not stored.
      const form = formBody([
        {
          name: 'data',
          value: JSON.stringify({
            invoice_id: other.invoiceId,
            lines: [{ invoice_line_id: other.invoiceLineId, quantity: 1, reason: 'damaged' }],
          }),
        },
      ]);
      const ret = await call(me, 'POST', '/store/aplt/returns', form.body, {
        'content-type': form.contentType,
      });
      expect(ret.status, `${me.name} returns ${other.name}'s goods`).toBe(404);
      // The other's cart: no line added, changed or removed, no carry-over, no quotation request.
      for (const [what, method, path, body] of [
        ['adds to', 'POST', `/store/carts/${other.cartId}/line-items`, { sku: '100-01', quantity: 1 }],
        ['changes', 'POST', `/store/carts/${other.cartId}/line-items/${other.cartLineId}`, { quantity: 99 }],
        ['removes from', 'DELETE', `/store/carts/${other.cartId}/line-items/${other.cartLineId}`, undefined],
        ['takes over', 'POST', `/store/carts/${other.cartId}/customer`, undefined],
        ['requests a quotation of', 'POST', `/store/carts/${other.cartId}/quote-request`, {}],
        // My own line id under the other's cart, and the other's line under mine.
        [
          'changes my line in',
          'POST',
          `/store/carts/${other.cartId}/line-items/${me.cartLineId}`,
          { quantity: 2 },
        ],
        [
          'changes their line in my',
          'POST',
          `/store/carts/${me.cartId}/line-items/${other.cartLineId}`,
          { quantity: 2 },
        ],
      ] as const) {
        const res = await call(me, method, path, body);
        expect(res.status, `${me.name} ${what} ${other.name}'s cart`).toBe(404);
        expect(res.json().type).toBe('not_found');
      }
      // The other's photo under my own return: still 404.
      const mixed = await call(me, 'GET', `/store/aplt/returns/${me.returnId}/photos/${other.photoId}`);
      expect(mixed.status).toBe(404);
    }
    // Nothing the others tried changed anything.
    for (const t of Object.values(who)) {
      const q = await tenantDbs(fleet, t.host.split('.')[0]!)
        .aplt.selectFrom('aplt_quotation_headers')
        .select('status')
        .where('id', '=', t.quoteId)
        .executeTakeFirstOrThrow();
      expect(q.status).toBe('open');
      const returns = await call(t, 'GET', '/store/aplt/returns');
      expect(returns.json().count).toBe(1);
      const cart = (await call(t, 'GET', `/store/carts/${t.cartId}`)).json().cart;
      expect(cart).toMatchObject({ status: 'open', items: [{ id: t.cartLineId, quantity: 25 }] });
    }
  });

  it("lists hold only the caller's records; the profile and avatar are always the caller's own", async () => {
    for (const me of Object.values(who)) {
      const quotes = (await call(me, 'GET', '/store/aplt/quotes')).json();
      expect(quotes.data.map((q: Item) => q.id).sort()).toEqual([me.quoteId, me.acceptedQuoteId].sort());
      const orders = (await call(me, 'GET', '/store/aplt/orders')).json();
      expect(orders.data.map((o: Item) => o.id)).toEqual([me.orderId]);
      const invoices = (await call(me, 'GET', '/store/aplt/invoices')).json();
      expect(invoices.data.map((i: Item) => i.id)).toEqual([me.invoiceId]);
      expect(invoices.data.every((i: Item) => i.customer_id === me.apltId)).toBe(true);
      const returns = (await call(me, 'GET', '/store/aplt/returns')).json();
      expect(returns.data.map((r: Item) => r.id)).toEqual([me.returnId]);
      const cart = (await call(me, 'GET', '/store/carts/mine')).json().cart;
      expect(cart.id).toBe(me.cartId);
      const profile = (await call(me, 'GET', '/store/customers/me')).json().customer;
      expect(profile.email).toBe(me.email);
      expect(profile.company_name).toBeNull();
    }
    // Anna of acme and Anna of globex share an e-mail, not an account.
    const annaAcme = (await call(who.a, 'GET', '/store/customers/me')).json().customer;
    const annaGlobex = (await call(who.c, 'GET', '/store/customers/me')).json().customer;
    expect(annaAcme.id).not.toBe(annaGlobex.id);
  });

  it("refuses one tenant's session on another tenant's host", async () => {
    for (const [me, host] of [
      [who.a, 'globex.localhost'],
      [who.c, 'acme.localhost'],
    ] as const) {
      for (const path of [
        '/store/aplt/quotes',
        '/store/aplt/orders',
        '/store/aplt/invoices',
        '/store/aplt/returns',
        '/store/carts/mine',
        '/store/customers/me',
      ]) {
        const res = await call({ host, cookie: me.cookie }, 'GET', path);
        expect(res.status, `${me.name} on ${host}${path}`).toBe(401);
      }
    }
  });

  it("takes three large photos through the proxy, and a photo over 5 MB is the service's 413, not a 502", async () => {
    const admin = adminClient(documents, who.b.host, 'acme');
    const inv = await invoicedOrder(admin, who.b.apltId, [3]);
    const line = inv.invoiceLines.find((l) => l.line_type === 'product')!;
    const data = JSON.stringify({
      invoice_id: inv.invoiceId,
      lines: [{ invoice_line_id: line.id, quantity: 1, reason: 'defective' }],
    });
    // Noise does not compress: about 4 MB each, 13 MB in all, far above the proxy's old 2 MiB.
    const big = await sharp({
      create: {
        width: 1800,
        height: 1800,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(big.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const three = formBody([
      { name: 'data', value: data },
      ...[1, 2, 3].map((i) => ({
        name: 'photos',
        filename: `${i}.jpg`,
        contentType: 'image/jpeg',
        data: big,
      })),
    ]);
    const ok = await call(who.b, 'POST', '/store/aplt/returns', three.body, {
      'content-type': three.contentType,
    });
    expect(ok.status, ok.text()).toBe(201);
    expect(ok.json().photos).toHaveLength(3);
    const tooBig = formBody([
      { name: 'data', value: data },
      {
        name: 'photos',
        filename: 'x.jpg',
        contentType: 'image/jpeg',
        data: Buffer.concat([big, Buffer.alloc(5 * 1024 * 1024 - big.length + 1)]),
      },
    ]);
    const refused = await call(who.b, 'POST', '/store/aplt/returns', tooBig.body, {
      'content-type': tooBig.contentType,
    });
    expect(refused.status).toBe(413);
    expect(refused.json()).toMatchObject({ type: 'payload_too_large', field: 'photos[0]' });
  });

  it('takes an avatar of exactly 2 MB through the proxy', async () => {
    const noise = await sharp({
      create: {
        width: 1000,
        height: 1000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    // Bytes after the image's end marker are ignored by decoders: pad to the limit exactly.
    const exact = Buffer.concat([noise, Buffer.alloc(2 * 1024 * 1024 - noise.length)]);
    const f = formBody([{ name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: exact }]);
    const res = await call(who.a, 'PUT', '/store/customers/me/avatar', f.body, {
      'content-type': f.contentType,
    });
    expect(res.status, res.text()).toBe(200);
    expect((await call(who.a, 'GET', '/store/customers/me/avatar')).headers['content-type']).toBe(
      'image/jpeg',
    );
  });

  it('a deleted account loses every route at once', async () => {
    const gone = await owner('Gijs', 'acme', 'gijs@customer.test');
    const del = await call(gone, 'DELETE', '/store/customers/me', { password: PASSWORD });
    expect(del.status, del.text()).toBe(200);
    for (const [what, path] of [
      ...reads(gone),
      ['profile', '/store/customers/me'] as [string, string],
      ['orders', '/store/aplt/orders'] as [string, string],
    ]) {
      expect((await call(gone, 'GET', path)).status, what).toBe(401);
    }
  });
});
