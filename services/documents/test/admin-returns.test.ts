import { sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, createTestRedis, type TestFleet, type TestRedis, viaProxy } from '@aplt/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { tenantDbs, testEnv } from './fixtures';
import {
  addCustomer,
  adminClient,
  formBody,
  invoicedOrder,
  jpegPhoto,
  pngPhoto,
  useTempStores,
} from './store-fixtures';

/**
 * Staff's view of the returns customers file in the shop: GET /admin/aplt/returns (filters and
 * search), one return with lines, photos and customer, a photo's bytes; an admin token only, the
 * tenant's own returns only (another tenant's id is 404), bad ids a 400.
 */
describe('admin: returns filed in the shop', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let acmeAdmin: ReturnType<typeof adminClient>;
  let globexAdmin: ReturnType<typeof adminClient>;
  type Who = Awaited<ReturnType<typeof addCustomer>>;
  let jan: Who;
  let piet: Who;
  let gerda: Who;
  const filed: Record<string, { id: number; return_number: string; invoice_id: number }> = {};

  const fileReturn = async (host: string, who: Who, body: object, photos: Buffer[]) => {
    const { body: payload, contentType } = formBody([
      { name: 'data', value: JSON.stringify(body) },
      ...photos.map((data, i) => ({
        name: 'photos',
        filename: `p${i}.bin`,
        contentType: 'image/jpeg',
        data,
      })),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/store/aplt/returns',
      payload,
      headers: { ...viaProxy(host), authorization: `Bearer ${who.token}`, 'content-type': contentType },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const raw = (host: string, url: string, token?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: { ...viaProxy(host), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  let stores: ReturnType<typeof useTempStores> | undefined;
  beforeAll(async () => {
    stores = useTempStores('admin-returns');
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'globex' }]);
    // globex's ids start far above acme's, so an acme id never names a globex record by accident.
    const g = tenantDbs(fleet, 'globex').aplt;
    for (const table of ['aplt_customers', 'aplt_invoice_headers', 'aplt_invoice_lines', 'aplt_returns']) {
      await sql`alter table ${sql.table(table)} alter column id restart with 100000`.execute(g);
    }
    redis = await createTestRedis();
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv({ ...fleet.env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix })),
    );
    const dbsOf = (t: string) => ({
      commerce: tenantDbs(fleet, t).commerce,
      aplt: tenantDbs(fleet, t).aplt,
    });
    jan = await addCustomer(dbsOf('acme'), 'acme', { id: 'cus_jan', email: 'jan@bakker.test' });
    piet = await addCustomer(dbsOf('acme'), 'acme', { id: 'cus_piet', email: 'piet@visser.test' });
    gerda = await addCustomer(dbsOf('globex'), 'globex', { id: 'cus_gerda', email: 'gerda@globex.test' });
    acmeAdmin = adminClient(app, 'acme.localhost', 'acme');
    globexAdmin = adminClient(app, 'globex.localhost', 'globex');

    const janInv = await invoicedOrder(acmeAdmin, jan.apltId!, [5, 2]);
    const [pens, mugs] = janInv.invoiceLines.filter((l) => l.line_type === 'product');
    filed.jan = await fileReturn(
      'acme.localhost',
      jan,
      {
        invoice_id: janInv.invoiceId,
        lines: [
          { invoice_line_id: pens!.id, quantity: 2, reason: 'damaged' },
          { invoice_line_id: mugs!.id, quantity: 1, reason: 'other', reason_text: 'Verkeerde kleur' },
        ],
        remark: 'Doos was nat',
      },
      [await jpegPhoto(), await pngPhoto()],
    );
    const pietInv = await invoicedOrder(acmeAdmin, piet.apltId!, [3]);
    filed.piet = await fileReturn(
      'acme.localhost',
      piet,
      {
        invoice_id: pietInv.invoiceId,
        lines: [{ invoice_line_id: pietInv.invoiceLines[0]!.id, quantity: 1, reason: 'defective' }],
      },
      [],
    );
    const gerdaInv = await invoicedOrder(globexAdmin, gerda.apltId!, [4]);
    filed.gerda = await fileReturn(
      'globex.localhost',
      gerda,
      {
        invoice_id: gerdaInv.invoiceId,
        lines: [{ invoice_line_id: gerdaInv.invoiceLines[0]!.id, quantity: 4, reason: 'not_as_expected' }],
      },
      [await pngPhoto()],
    );
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
    await stores?.remove();
  });

  it("lists the tenant's returns newest first, with their lines, photos and customer", async () => {
    const list = await acmeAdmin('GET', '/admin/aplt/returns');
    expect(list).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect(list.data.map((r: { return_number: string }) => r.return_number)).toEqual([
      filed.piet!.return_number,
      filed.jan!.return_number,
    ]);
    const jans = list.data[1];
    expect(jans).toMatchObject({
      id: filed.jan!.id,
      status: 'requested',
      invoice_id: filed.jan!.invoice_id,
      customer_id: jan.apltId,
      customer_email: 'jan@bakker.test',
      customer_company: 'cus_jan BV',
      customer_name: 'cus_jan',
      remark: 'Doos was nat',
    });
    expect(jans.invoice_number).toMatch(/^F-/);
    expect(jans.lines.map((l: { quantity: number; reason: string }) => [l.quantity, l.reason])).toEqual([
      [2, 'damaged'],
      [1, 'other'],
    ]);
    expect(jans.photos.map((p: { content_type: string }) => p.content_type)).toEqual([
      'image/jpeg',
      'image/png',
    ]);
    expect(jans.photos[0].url).toBe(`/admin/aplt/returns/${filed.jan!.id}/photos/${jans.photos[0].id}`);
    // globex sees only its own.
    const g = await globexAdmin('GET', '/admin/aplt/returns');
    expect(g.data.map((r: { return_number: string }) => r.return_number)).toEqual([
      filed.gerda!.return_number,
    ]);
  });

  it('filters by status, customer, invoice and a search over return number, invoice number and e-mail', async () => {
    const numbers = async (qs: string) =>
      ((await acmeAdmin('GET', `/admin/aplt/returns?${qs}`)).data as { return_number: string }[]).map(
        (r) => r.return_number,
      );
    expect(await numbers('status=requested')).toHaveLength(2);
    expect(await numbers('status=approved')).toEqual([]);
    expect(await numbers(`customer_id=${piet.apltId}`)).toEqual([filed.piet!.return_number]);
    expect(await numbers(`invoice_id=${filed.jan!.invoice_id}`)).toEqual([filed.jan!.return_number]);
    expect(await numbers(`q=${encodeURIComponent(filed.jan!.return_number)}`)).toEqual([
      filed.jan!.return_number,
    ]);
    expect(await numbers('q=PIET@VISSER')).toEqual([filed.piet!.return_number]);
    // LIKE wildcards are literal.
    expect(await numbers('q=%25')).toEqual([]);
    expect(await numbers('q=_')).toEqual([]);
    const paged = await acmeAdmin('GET', '/admin/aplt/returns?limit=1&offset=1');
    expect(paged).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(paged.data.map((r: { return_number: string }) => r.return_number)).toEqual([
      filed.jan!.return_number,
    ]);
  });

  it('one return and its photo bytes; another tenant sees 404 for it', async () => {
    const one = await acmeAdmin('GET', `/admin/aplt/returns/${filed.jan!.id}`);
    expect(one).toMatchObject({ return_number: filed.jan!.return_number, customer_email: 'jan@bakker.test' });
    const bytes = (await acmeAdmin('GET', one.photos[0].url)) as Buffer;
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
    // Stored without the EXIF the upload had.
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    const globexToken = (await raw('globex.localhost', '/admin/aplt/returns')).statusCode;
    expect(globexToken).toBe(401);
    for (const url of [`/admin/aplt/returns/${filed.jan!.id}`, one.photos[0].url]) {
      await expect(globexAdmin('GET', url)).rejects.toThrow(/: 404 /);
    }
    await expect(acmeAdmin('GET', `/admin/aplt/returns/${filed.gerda!.id}`)).rejects.toThrow(/: 404 /);
    // A photo id of another return of the same tenant is 404 too.
    const piets = await acmeAdmin('GET', `/admin/aplt/returns/${filed.piet!.id}`);
    await expect(
      acmeAdmin('GET', `/admin/aplt/returns/${piets.id}/photos/${one.photos[0].id}`),
    ).rejects.toThrow(/: 404 /);
  });

  it('refuses customers and bad input with the error body, never a 500', async () => {
    const customer = await raw('acme.localhost', '/admin/aplt/returns', jan.token);
    expect(customer.statusCode).toBe(401);
    expect(customer.json()).toMatchObject({ type: 'unauthorized' });
    for (const url of [
      '/admin/aplt/returns/abc',
      '/admin/aplt/returns/0',
      '/admin/aplt/returns/99999999999999999999',
      '/admin/aplt/returns?status=lost',
      '/admin/aplt/returns?limit=1000',
      `/admin/aplt/returns?q=${'x'.repeat(201)}`,
      '/admin/aplt/returns?q=a%00b',
    ]) {
      const err = await acmeAdmin('GET', url).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(err, url).toMatch(/: 400 /);
    }
  });
});
