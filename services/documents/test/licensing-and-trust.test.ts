import { generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import { type FeatureKey, featureKeys, staticFeatureSource } from '@aplt/licensing';
import { createTestFleet, type TestFleet, testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminToken, seedCatalog, tenantDbs, testEnv } from './fixtures';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Every /admin and /store route of the service with the feature it must be guarded by. The test
 * below also reads the app's own route list, so a route added without a line here fails it.
 */
const routeFeatures: Array<[Method, string, FeatureKey]> = [
  ['GET', '/admin/aplt/quotations', 'quotations'],
  ['POST', '/admin/aplt/quotations', 'quotations'],
  ['GET', '/admin/aplt/quotations/:id', 'quotations'],
  ['PUT', '/admin/aplt/quotations/:id', 'quotations'],
  ['DELETE', '/admin/aplt/quotations/:id', 'quotations'],
  ['POST', '/admin/aplt/quotations/confirm', 'quotations'],
  ['POST', '/admin/aplt/quotations/reject', 'quotations'],
  ['POST', '/admin/aplt/quotations/expire', 'quotations'],
  ['GET', '/admin/aplt/quotations/pdf', 'quotations'],
  ['POST', '/admin/aplt/quotations/eml', 'quotations'],
  ['POST', '/admin/aplt/quotations/price-proposal', 'quotations'],
  ['GET', '/admin/aplt/orders', 'orders'],
  ['POST', '/admin/aplt/orders', 'orders'],
  ['GET', '/admin/aplt/orders/:id', 'orders'],
  ['PUT', '/admin/aplt/orders/:id', 'orders'],
  ['DELETE', '/admin/aplt/orders/:id', 'orders'],
  ['POST', '/admin/aplt/orders/status', 'orders'],
  ['GET', '/admin/aplt/orders/pdf', 'orders'],
  ['POST', '/admin/aplt/orders/eml', 'orders'],
  ['GET', '/admin/aplt/orders/partner', 'orders'],
  ['GET', '/admin/aplt/orders/:id/partner', 'orders'],
  ['POST', '/admin/aplt/orders/:id/partner/resend', 'orders'],
  ['GET', '/admin/aplt/invoices', 'invoices'],
  ['POST', '/admin/aplt/invoices', 'invoices'],
  ['GET', '/admin/aplt/invoices/:id', 'invoices'],
  ['PUT', '/admin/aplt/invoices/:id', 'invoices'],
  ['DELETE', '/admin/aplt/invoices/:id', 'invoices'],
  ['GET', '/admin/aplt/invoices/pdf', 'invoices'],
  ['POST', '/admin/aplt/invoices/eml', 'invoices'],
  ['GET', '/admin/aplt/invoices/ubl', 'invoices'],
  ['GET', '/admin/aplt/credit-notes', 'credit_notes'],
  ['POST', '/admin/aplt/credit-notes', 'credit_notes'],
  ['GET', '/admin/aplt/credit-notes/:id', 'credit_notes'],
  ['GET', '/admin/aplt/credit-notes/pdf', 'credit_notes'],
  ['GET', '/admin/aplt/credit-notes/ubl', 'credit_notes'],
  ['POST', '/admin/aplt/credit-notes/eml', 'credit_notes'],
  ['GET', '/admin/aplt/payments', 'payments'],
  ['POST', '/admin/aplt/payments', 'payments'],
  ['GET', '/admin/aplt/payments/:id', 'payments'],
  ['POST', '/admin/aplt/payments/allocate-credit', 'payments'],
  ['GET', '/admin/aplt/payments/customer-credit', 'payments'],
  ['GET', '/admin/aplt/reports', 'reports'],
  ['GET', '/admin/aplt/reports/aged-receivables', 'reports'],
  ['GET', '/admin/aplt/reports/revenue', 'reports'],
  ['GET', '/admin/aplt/reports/vat', 'reports'],
  ['GET', '/admin/aplt/reports/dashboard', 'reports'],
  ['GET', '/admin/aplt/returns', 'invoices'],
  ['GET', '/admin/aplt/returns/:id', 'invoices'],
  ['GET', '/admin/aplt/returns/:id/photos/:photoId', 'invoices'],
  ['GET', '/admin/aplt/customers', 'customers'],
  ['POST', '/admin/aplt/customers', 'customers'],
  ['GET', '/admin/aplt/customers/:id', 'customers'],
  ['PUT', '/admin/aplt/customers/:id', 'customers'],
  ['DELETE', '/admin/aplt/customers/:id', 'customers'],
  ['GET', '/admin/aplt/parameters', 'parameters'],
  ['PUT', '/admin/aplt/parameters', 'parameters'],
  ['GET', '/admin/aplt/parameters/partner', 'parameters'],
  ['PUT', '/admin/aplt/parameters/partner', 'parameters'],
  ['GET', '/admin/aplt/content/cms-settings', 'cms'],
  ['GET', '/admin/aplt/content/footer', 'cms'],
  ['GET', '/admin/aplt/content/modules', 'cms_modules'],
  ['GET', '/admin/aplt/content/brands', 'brand_wizard'],
  ['GET', '/admin/aplt/content/pages', 'page_manager'],
  ['GET', '/admin/aplt/content/menus', 'menu_manager'],
  ['GET', '/admin/aplt/content/translations', 'translations'],
  ['GET', '/admin/aplt/subscriptions', 'subscriptions'],
  ['POST', '/admin/aplt/subscriptions', 'subscriptions'],
  ['GET', '/admin/aplt/subscriptions/:id', 'subscriptions'],
  ['PUT', '/admin/aplt/subscriptions/:id', 'subscriptions'],
  ['POST', '/admin/aplt/subscriptions/:id/pause', 'subscriptions'],
  ['POST', '/admin/aplt/subscriptions/:id/resume', 'subscriptions'],
  ['GET', '/admin/aplt/subscriptions/:id/invoices', 'subscriptions'],
  ['GET', '/admin/aplt/subscriptions/settings', 'subscriptions'],
  ['PUT', '/admin/aplt/subscriptions/settings', 'subscriptions'],
  ['GET', '/admin/aplt/subscriptions/billing-runs', 'subscriptions'],
  ['POST', '/admin/aplt/subscriptions/billing-runs', 'subscriptions'],
  ['GET', '/admin/aplt/subscriptions/billing-runs/:id', 'subscriptions'],
  ['GET', '/store/aplt/quotations', 'quotations'],
  ['POST', '/store/aplt/quotations', 'quotations'],
  ['PUT', '/store/aplt/quotations', 'quotations'],
  ['GET', '/store/aplt/quotations/lines', 'quotations'],
  ['POST', '/store/aplt/quotations/lines', 'quotations'],
  ['PUT', '/store/aplt/quotations/lines', 'quotations'],
  ['DELETE', '/store/aplt/quotations/lines', 'quotations'],
  ['GET', '/store/aplt/quotes', 'quotations'],
  ['POST', '/store/aplt/quotes/:id/accept', 'quotations'],
  ['POST', '/store/aplt/quotes/:id/reject', 'quotations'],
  ['GET', '/store/aplt/quotes/:id', 'quotations'],
  ['GET', '/store/aplt/invoices', 'invoices'],
  ['GET', '/store/aplt/invoices/:id', 'invoices'],
  ['GET', '/store/aplt/invoices/pdf', 'invoices'],
  ['GET', '/store/aplt/orders', 'orders'],
  ['GET', '/store/aplt/orders/:id', 'orders'],
  ['POST', '/store/aplt/returns', 'invoices'],
  ['GET', '/store/aplt/returns', 'invoices'],
  ['GET', '/store/aplt/returns/:id', 'invoices'],
  ['GET', '/store/aplt/returns/:id/photos/:photoId', 'invoices'],
  // Carts end in a quotation request: no quotations, no cart (services/documents/README.md).
  ['POST', '/store/carts', 'quotations'],
  ['GET', '/store/carts/mine', 'quotations'],
  ['GET', '/store/carts/:id', 'quotations'],
  ['POST', '/store/carts/:id/line-items', 'quotations'],
  ['POST', '/store/carts/:id/line-items/:line_id', 'quotations'],
  ['DELETE', '/store/carts/:id/line-items/:line_id', 'quotations'],
  ['POST', '/store/carts/:id/customer', 'quotations'],
  ['POST', '/store/carts/:id/quote-request', 'quotations'],
];
/** Guarded in the handler by the document it starts from (see the README). */
const CHAIN = 'GET /admin/aplt/document-chain';

/** `METHOD /path` of every route in Fastify's printed route tree (HEAD left out). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack[depth] = m[2]!;
    for (const method of m[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') routes.push(`${method} ${stack.join('')}`);
    }
  }
  return routes;
}

describe('documents: licensed features per route, and only what passed the proxy gets in', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  let cat: Awaited<ReturnType<typeof seedCatalog>>;
  // acme's licence, changed by each test; no entry means every feature.
  const licensed: Record<string, FeatureKey[]> = {};
  const without = (...features: FeatureKey[]) => {
    licensed.acme = featureKeys.filter((f) => !features.includes(f));
  };
  const host = 'acme.localhost';

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    cat = await seedCatalog(tenantDbs(fleet, 'acme').aplt);
    app = await buildApp(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: { ...staticFeatureSource(licensed), start: async () => {}, close: async () => {} },
      },
      loadConfig(testEnv(fleet.env)),
    );
    await app.ready();
    token = await adminToken('acme');
  });
  beforeEach(() => {
    delete licensed.acme;
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  const request = (method: Method, url: string, headers: Record<string, string> = viaProxy(host)) =>
    app.inject({ method, url, headers });
  const asAdmin = async (method: Method, url: string, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy(host), authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  it('the table above lists every /admin and /store route the app registers', () => {
    const registered = registeredRoutes(app.printRoutes({ commonPrefix: false }))
      .filter((r) => /^\w+ \/(admin|store)\//.test(r))
      .sort();
    expect(registered).toEqual([...routeFeatures.map(([m, u]) => `${m} ${u}`), CHAIN].sort());
  });

  it('answers 403 Feature not available on each route whose feature the tenant lacks, and only then', async () => {
    for (const [method, pattern, feature] of routeFeatures) {
      const url = pattern.replace(':id', '1');
      without(feature);
      const refused = await request(method, url);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({
        type: 'not_allowed',
        message: 'Feature not available',
        feature,
      });
      // Every other feature missing instead: the route is not refused for the license.
      licensed.acme = [feature];
      const passed = await request(method, url);
      expect(passed.statusCode, `${method} ${url}`).not.toBe(403);
      expect(passed.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
  });

  it('guards the route, not the spelling: percent-encoded paths are refused, other cases match no route', async () => {
    without('invoices', 'quotations');
    for (const [url, feature] of [
      ['/admin/aplt/%69nvoices', 'invoices'],
      ['/admin/aplt/invoice%73/%70df?id=1', 'invoices'],
      ['/store/aplt/%71uotations', 'quotations'],
      ['/store/aplt/quotations/%6cines?quotation_id=1', 'quotations'],
      ['/store/aplt/%71uotes', 'quotations'],
      ['/%61dmin/aplt/quotations', 'quotations'],
    ] as const) {
      const res = await request('GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature });
    }
    // Routes are case-sensitive and decoded once: these spellings are no route at all, so no
    // handler is reached, licensed or not.
    for (const url of [
      '/admin/aplt/INVOICES',
      '/Admin/aplt/invoices',
      '/store/aplt/Quotations',
      '/admin/aplt/%2569nvoices',
    ]) {
      without('invoices', 'quotations');
      expect((await request('GET', url)).statusCode, url).toBe(404);
      delete licensed.acme;
      expect((await request('GET', url)).statusCode, url).toBe(404);
    }
  });

  it('keeps the source filter an add-on on the admin and the store list', async () => {
    without('quotation_source_filter');
    for (const url of ['/store/aplt/quotations?source_code=web', '/admin/aplt/quotations?source_code=web']) {
      const res = await app.inject({
        url,
        headers: { ...viaProxy(host), authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        message: 'Feature not available',
        feature: 'quotation_source_filter',
      });
      const plain = await app.inject({
        url: url.replace('?source_code=web', ''),
        headers: { ...viaProxy(host), authorization: `Bearer ${token}` },
      });
      expect(plain.statusCode, url).toBe(200);
    }
  });

  it('opens the document chain by the feature of its first document and shows only licensed documents', async () => {
    const q = await asAdmin('POST', '/admin/aplt/quotations', {
      customer_id: cat.customerNl,
      lines: [{ line_type: 'product', description: 'Item', quantity: 2, unit_price: '10.00' }],
    });
    expect(q.status).toBe(201);
    const o = await asAdmin('POST', '/admin/aplt/quotations/confirm', { id: q.body.id });
    expect(o.status).toBe(201);
    const f = await asAdmin('POST', '/admin/aplt/invoices', { order_id: o.body.id });
    expect(f.status).toBe(201);
    const chain = (query: string) => asAdmin('GET', `/admin/aplt/document-chain?${query}`);

    const full = await chain(`number=${q.body.quotation_number}`);
    expect(full.body.documents.map((d: { type: string }) => d.type)).toEqual([
      'quotation',
      'order',
      'invoice',
    ]);

    without('invoices');
    // Refused on the type asked for, before any lookup: an unknown number answers the same.
    for (const query of [
      `type=invoice&id=${f.body.id}`,
      `number=${f.body.invoice_number}`,
      'number=F-2099-9999',
    ]) {
      const res = await chain(query);
      expect(res.status, query).toBe(403);
      expect(res.body).toMatchObject({ message: 'Feature not available', feature: 'invoices' });
    }
    const partial = await chain(`type=order&id=${o.body.id}`);
    expect(partial.status).toBe(200);
    expect(partial.body.documents.map((d: { number: string }) => d.number)).toEqual([
      q.body.quotation_number,
      o.body.order_number,
    ]);
    expect(partial.body.relations.map((r: { relation_type: string }) => r.relation_type)).toEqual([
      'converted',
    ]);

    without('quotations');
    expect((await chain(`number=${q.body.quotation_number}`)).body).toMatchObject({ feature: 'quotations' });
    const fromInvoice = await chain(`number=${f.body.invoice_number}`);
    expect(fromInvoice.body.documents.map((d: { type: string }) => d.type)).toEqual(['order', 'invoice']);
    expect((await chain('type=order')).status).toBe(400);
  });

  it('answers 401 without a valid assertion for this host, before the license is even looked at', async () => {
    without('invoices');
    const signer = new AssertionSigner(testSecrets().ACCESS_ASSERTION_PRIVATE_KEY);
    const claims = { sub: 'whitelist', host, tenant: 'acme', reason: 'whitelist' as const, roles: [] };
    const forged = new AssertionSigner(generateSecrets().ACCESS_ASSERTION_PRIVATE_KEY).sign(claims);
    const expired = signer.sign(claims, Date.now() - 61_000);
    const refusals: Record<string, Record<string, string>> = {
      none: { host },
      garbage: { host, [ASSERTION_HEADER]: 'not-a-token' },
      forged: { host, [ASSERTION_HEADER]: forged },
      expired: { host, [ASSERTION_HEADER]: expired },
      'another host': { host, [ASSERTION_HEADER]: viaProxy('globex.localhost')[ASSERTION_HEADER]! },
    };
    for (const [why, headers] of Object.entries(refusals)) {
      for (const [method, url] of [
        ['GET', '/admin/aplt/invoices'],
        ['GET', '/admin/aplt/quotations'],
        ['GET', '/store/aplt/quotations'],
        ['POST', '/store/aplt/quotes/1/accept'],
        ['GET', '/admin/aplt/document-chain?number=Q-2026-0001'],
      ] as const) {
        const res = await request(method, url, { ...headers, authorization: `Bearer ${token}` });
        expect(res.statusCode, `${why}: ${method} ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ type: 'unauthorized' });
      }
    }
    delete licensed.acme;
    // The same calls with the proxy's assertion pass.
    expect((await request('GET', '/store/aplt/quotations')).statusCode).toBe(200);
    expect((await asAdmin('GET', '/admin/aplt/invoices')).status).toBe(200);
  });

  it('answers its health checks without an assertion', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await app.inject({ url, headers: { host } });
      expect(res.statusCode, url).toBe(200);
    }
  });
});
