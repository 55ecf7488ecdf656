import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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
  until,
  useTempStores,
} from './store-fixtures';

/** An item of a JSON answer, read by the fields the test names. */
type Item = Record<string, unknown>;

const MB5 = 5 * 1024 * 1024;

describe('store: returns with photos', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let auth: Awaited<ReturnType<typeof buildAuthApp>>;
  let admin: ReturnType<typeof adminClient>;
  let dirs: ReturnType<typeof useTempStores>;
  const host = 'acme.localhost';
  type Who = Awaited<ReturnType<typeof addCustomer>>;
  let jan: Who;
  let piet: Who;
  const aplt = () => tenantDbs(fleet, 'acme').aplt;

  type Part = Parameters<typeof formBody>[0][number];
  const fileReturn = (token: string, parts: Part[]) => {
    const { body, contentType } = formBody(parts);
    return app.inject({
      method: 'POST',
      url: '/store/aplt/returns',
      payload: body,
      headers: { ...viaProxy(host), authorization: `Bearer ${token}`, 'content-type': contentType },
    });
  };
  const data = (value: object): Part => ({ name: 'data', value: JSON.stringify(value) });
  const photo = (bytes: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): Part => ({
    name: 'photos',
    filename,
    contentType,
    data: bytes,
  });
  const get = (url: string, token: string) =>
    app.inject({ method: 'GET', url, headers: { ...viaProxy(host), authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    dirs = useTempStores('returns');
    fleet = await createTestFleet([{ id: 'acme' }]);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const env = { ...fleet.env, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(env)),
    );
    // The fleet's mail path: the auth service's mail worker delivers what documents queues.
    auth = await buildAuthApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
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
    const dbs = { commerce: tenantDbs(fleet, 'acme').commerce, aplt: aplt() };
    jan = await addCustomer(dbs, 'acme', { id: 'cus_jan', email: 'jan@bakker.test' });
    piet = await addCustomer(dbs, 'acme', { id: 'cus_piet', email: 'piet@visser.test' });
    const brand = await aplt()
      .insertInto('aplt_brands')
      .values({ code: 'acme', name: 'Acme', is_default: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await aplt()
      .insertInto('aplt_cms_settings')
      .values([
        { brand_id: brand.id, key: 'email', value: 'info@acme.test' },
        { brand_id: brand.id, key: 'returns_email', value: 'retouren@acme.test, magazijn@acme.test' },
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
    await dirs?.remove();
  });

  it('files a return with two photos: stored without metadata, audited, staff e-mailed, shown only to its owner', async () => {
    const inv = await invoicedOrder(admin, jan.apltId!, [5, 2]);
    const [pens, mugs] = inv.invoiceLines.filter((l) => l.line_type === 'product');
    const jpeg = await jpegPhoto();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await fileReturn(jan.token, [
      data({
        invoice_id: inv.invoiceId,
        lines: [
          { invoice_line_id: pens!.id, quantity: 2, reason: 'damaged' },
          { invoice_line_id: mugs!.id, quantity: 1, reason: 'other', reason_text: 'Verkeerde kleur opdruk' },
        ],
        remark: 'Doos was nat',
      }),
      // Names and declared types are ignored: the PNG is sent as "foto.jpg", image/jpeg.
      photo(jpeg, 'IMG_0001.JPG'),
      photo(await pngPhoto(), 'foto.jpg', 'image/jpeg'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const ret = res.json();
    expect(ret).toMatchObject({
      return_number: expect.stringMatching(/^R-\d{4}-0001$/),
      status: 'requested',
      invoice_id: inv.invoiceId,
      remark: 'Doos was nat',
      lines: [
        { invoice_line_id: pens!.id, quantity: 2, reason: 'damaged' },
        { invoice_line_id: mugs!.id, quantity: 1, reason: 'other', reason_text: 'Verkeerde kleur opdruk' },
      ],
    });
    expect(ret.photos.map((p: Item) => [p.slot, p.content_type])).toEqual([
      [1, 'image/jpeg'],
      [2, 'image/png'],
    ]);

    // The photo comes back to its owner as an image, re-encoded without the EXIF block.
    const back = await get(ret.photos[0].url, jan.token);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/jpeg');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(back.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect((await get(ret.photos[1].url, jan.token)).headers['content-type']).toBe('image/png');
    // Nobody else's: Piet gets 404 for the photo and the return; a photo id under another return is 404 too.
    expect((await get(ret.photos[0].url, piet.token)).statusCode).toBe(404);
    expect((await get(`/store/aplt/returns/${ret.id}`, piet.token)).statusCode).toBe(404);
    expect(
      (await get(`/store/aplt/returns/${ret.id + 1}/photos/${ret.photos[0].id}`, jan.token)).statusCode,
    ).toBe(404);
    expect((await get('/store/aplt/returns', piet.token)).json()).toMatchObject({ count: 0, data: [] });
    const mine = (await get('/store/aplt/returns', jan.token)).json();
    expect(mine).toMatchObject({ count: 1, data: [{ id: ret.id, return_number: ret.return_number }] });
    expect((await get(`/store/aplt/returns/${ret.id}`, jan.token)).json()).toEqual(ret);

    // Stored under the photo directory, by the server's names only.
    const files = readdirSync(join(dirs.photos, 'acme', 'returns'), { recursive: true }).map(String);
    expect(files.filter((f) => /\.(jpg|png)$/.test(f))).toHaveLength(2);
    expect(files.some((f) => f.includes('IMG_0001') || f.includes('foto'))).toBe(false);

    const audit = await aplt()
      .selectFrom('aplt_audit_log')
      .selectAll()
      .where('action', '=', 'return.create')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor: 'jan@bakker.test',
      actor_type: 'customer',
      entity_type: 'return',
      entity_id: String(ret.id),
    });
    expect(audit.changes).toMatchObject({ return_number: ret.return_number, photos: 2 });

    // Staff hear about it by e-mail at the brand's returns address(es), through the queue and SMTP.
    const mails = await until('two staff e-mails', async () => {
      const got = sink.messages.filter((m) => m.parsed.subject?.includes(ret.return_number));
      return got.length >= 2 ? got : undefined;
    });
    expect(mails.flatMap((m) => m.envelope.to).sort()).toEqual(['magazijn@acme.test', 'retouren@acme.test']);
    expect(mails[0]!.parsed.text).toContain('2 x SKU-1 Item 1: damaged');
    expect(mails[0]!.parsed.text).toContain('Verkeerde kleur opdruk');
    expect(mails[0]!.secure).toBe(true);
  });

  it('never returns more than was invoiced minus earlier returns, and a rejected return gives its quantity back', async () => {
    const inv = await invoicedOrder(admin, jan.apltId!, [3]);
    const line = inv.invoiceLines.find((l) => l.line_type === 'product')!;
    const ask = (quantity: number) =>
      fileReturn(jan.token, [
        data({
          invoice_id: inv.invoiceId,
          lines: [{ invoice_line_id: line.id, quantity, reason: 'defective' }],
        }),
      ]);
    const tooMany = await ask(4);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json()).toMatchObject({
      type: 'unprocessable',
      lines: [{ invoice_line_id: line.id, invoiced: 3, returned: 0, available: 3, requested: 4 }],
    });
    const first = await ask(2);
    expect(first.statusCode).toBe(201);
    expect((await ask(2)).json()).toMatchObject({ lines: [{ returned: 2, available: 1 }] });
    // Two lines of the same invoice line in one return count together.
    const split = await fileReturn(jan.token, [
      data({
        invoice_id: inv.invoiceId,
        lines: [
          { invoice_line_id: line.id, quantity: 1, reason: 'damaged' },
          { invoice_line_id: line.id, quantity: 1, reason: 'defective' },
        ],
      }),
    ]);
    expect(split.statusCode).toBe(422);
    await aplt()
      .updateTable('aplt_returns')
      .set({ status: 'rejected' })
      .where('id', '=', first.json().id)
      .execute();
    expect((await ask(3)).statusCode).toBe(201);
  });

  it('lets only one of many concurrent returns take the last units', async () => {
    for (let round = 0; round < 3; round++) {
      const inv = await invoicedOrder(admin, jan.apltId!, [2]);
      const line = inv.invoiceLines.find((l) => l.line_type === 'product')!;
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          fileReturn(jan.token, [
            data({
              invoice_id: inv.invoiceId,
              lines: [{ invoice_line_id: line.id, quantity: 1, reason: 'damaged' }],
            }),
          ]),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 201, 422, 422, 422, 422]);
      const held = await aplt()
        .selectFrom('aplt_return_lines')
        .select(sql<number>`sum(quantity)::int`.as('n'))
        .where('invoice_line_id', '=', line.id)
        .executeTakeFirstOrThrow();
      expect(held.n).toBe(2);
    }
  });

  it("refuses bad lines, someone else's invoice and malformed forms with 4xx", async () => {
    const inv = await invoicedOrder(admin, jan.apltId!, [4]);
    const product = inv.invoiceLines.find((l) => l.line_type === 'product')!;
    const shipping = inv.invoiceLines.find((l) => l.line_type === 'shipping');
    const others = await invoicedOrder(admin, piet.apltId!, [4]);
    const pietsLine = others.invoiceLines.find((l) => l.line_type === 'product')!;
    const ok = { invoice_line_id: product.id, quantity: 1, reason: 'damaged' };

    const cases: Array<[string, Part[], number, string?]> = [
      [
        "Piet's invoice",
        [data({ invoice_id: others.invoiceId, lines: [{ ...ok, invoice_line_id: pietsLine.id }] })],
        404,
      ],
      [
        'a line of another invoice',
        [data({ invoice_id: inv.invoiceId, lines: [{ ...ok, invoice_line_id: pietsLine.id }] })],
        400,
      ],
      ['no data field', [photo(await jpegPhoto())], 400],
      ['data not JSON', [{ name: 'data', value: '{invoice' }], 400],
      ['unknown reason', [data({ invoice_id: inv.invoiceId, lines: [{ ...ok, reason: 'bored' }] })], 400],
      ['other without text', [data({ invoice_id: inv.invoiceId, lines: [{ ...ok, reason: 'other' }] })], 400],
      ['zero quantity', [data({ invoice_id: inv.invoiceId, lines: [{ ...ok, quantity: 0 }] })], 400],
      ['no lines', [data({ invoice_id: inv.invoiceId, lines: [] })], 400],
      ['an extra key', [data({ invoice_id: inv.invoiceId, lines: [ok], customer_id: 1 })], 400],
      ['a NUL in the remark', [data({ invoice_id: inv.invoiceId, lines: [ok], remark: 'a\u0000b' })], 400],
      [
        'an unknown field',
        [data({ invoice_id: inv.invoiceId, lines: [ok] }), { name: 'note', value: 'x' }],
        400,
      ],
      [
        'a file in another field',
        [data({ invoice_id: inv.invoiceId, lines: [ok] }), { ...photo(await jpegPhoto()), name: 'file' }],
        400,
      ],
      [
        '4 photos',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          ...(await Promise.all([1, 2, 3, 4].map(async () => photo(await jpegPhoto())))),
        ],
        400,
      ],
      [
        'a GIF named .jpg',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          photo(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')),
        ],
        415,
      ],
      [
        'HTML named .png',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          photo(Buffer.from('<html><script>alert(1)</script>'), 'x.png', 'image/png'),
        ],
        415,
      ],
      ['an empty file', [data({ invoice_id: inv.invoiceId, lines: [ok] }), photo(Buffer.alloc(0))], 415],
      [
        'JPEG magic, then garbage',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          photo(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000)])),
        ],
        422,
      ],
      [
        'a truncated PNG',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          photo((await pngPhoto(300, 300)).subarray(0, 200), 'a.png', 'image/png'),
        ],
        422,
      ],
      [
        'a photo over 5 MB',
        [
          data({ invoice_id: inv.invoiceId, lines: [ok] }),
          photo(Buffer.concat([await jpegPhoto(), Buffer.alloc(MB5)])),
        ],
        413,
      ],
    ];
    if (shipping)
      cases.push([
        'the shipping line',
        [data({ invoice_id: inv.invoiceId, lines: [{ ...ok, invoice_line_id: shipping.id }] })],
        400,
      ]);
    for (const [what, parts, status] of cases) {
      const res = await fileReturn(jan.token, parts);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(res.json().type, what).toBeTypeOf('string');
    }
    // A photo of exactly 5 MB is within the limit (refused for its content, not its size).
    const exact = await fileReturn(jan.token, [
      data({ invoice_id: inv.invoiceId, lines: [ok] }),
      photo(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(MB5 - 3)])),
    ]);
    expect(exact.statusCode).toBe(422);
    // JSON instead of a form: 415 with the fleet's body.
    const json = await app.inject({
      method: 'POST',
      url: '/store/aplt/returns',
      payload: { invoice_id: inv.invoiceId, lines: [ok] },
      headers: { ...viaProxy(host), authorization: `Bearer ${jan.token}` },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ type: 'unsupported_media_type' });
    // A broken multipart body is the client's fault.
    const broken = await app.inject({
      method: 'POST',
      url: '/store/aplt/returns',
      payload: '--xyz\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"a":',
      headers: {
        ...viaProxy(host),
        authorization: `Bearer ${jan.token}`,
        'content-type': 'multipart/form-data; boundary=xyz',
      },
    });
    expect(broken.statusCode).toBe(400);
    // Nothing of the refused attempts was stored: no return, no file.
    const count = await aplt()
      .selectFrom('aplt_returns')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('invoice_id', '=', inv.invoiceId)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(0);
    // Without a customer token: 401 before any of it is read.
    const anon = await app.inject({
      method: 'POST',
      url: '/store/aplt/returns',
      payload: formBody([data({ invoice_id: inv.invoiceId, lines: [ok] })]).body,
      headers: { ...viaProxy(host), 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('removes the photos it wrote when the return cannot be stored', async () => {
    const inv = await invoicedOrder(admin, jan.apltId!, [1]);
    const line = inv.invoiceLines.find((l) => l.line_type === 'product')!;
    const before = readdirSync(dirs.photos, { recursive: true })
      .map(String)
      .filter((f) => /\.(jpg|png)$/.test(f)).length;
    await sql`
      CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit store unavailable'; END $$;
      CREATE TRIGGER refuse_audit BEFORE INSERT ON aplt_audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit();
    `.execute(aplt());
    try {
      const res = await fileReturn(jan.token, [
        data({
          invoice_id: inv.invoiceId,
          lines: [{ invoice_line_id: line.id, quantity: 1, reason: 'damaged' }],
        }),
        photo(await jpegPhoto()),
      ]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        type: 'unexpected_state',
        message: 'An unexpected error occurred',
        request_id: expect.any(String),
      });
    } finally {
      await sql`DROP TRIGGER refuse_audit ON aplt_audit_log; DROP FUNCTION refuse_audit();`.execute(aplt());
    }
    const after = readdirSync(dirs.photos, { recursive: true })
      .map(String)
      .filter((f) => /\.(jpg|png)$/.test(f)).length;
    expect(after).toBe(before);
    const rows = await aplt()
      .selectFrom('aplt_returns')
      .select('id')
      .where('invoice_id', '=', inv.invoiceId)
      .execute();
    expect(rows).toEqual([]);
  });
});
