import { type ApltDatabase, type CommerceDatabase, type Kysely, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  viaProxy,
} from '@aplt/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { anonymiseJobId } from '../src/customer/account.service';
import { registerPublicUrls, seedVerifiedCustomer, testConfig, until } from './helpers';

const HOST = 'shop.localhost';
const PASSWORD = 'Account-Password-2026';
const DAY = 86_400_000;

/** A multipart/form-data body built by hand, so the test controls every byte. */
function form(files: Array<{ name: string; filename: string; type: string; data: Buffer }>) {
  const boundary = `----acct${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe('storefront account: profile, avatar, deletion with delayed anonymisation', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let queue: QueueClient;
  const commerce = (): Kysely<CommerceDatabase> => fleet.tenantDbs.get('shop')!.commerce.db;
  const aplt = (): Kysely<ApltDatabase> => fleet.tenantDbs.get('shop')!.aplt.db;
  /**
   * What a job of the auth worker returned, once it completed. The state is read after the job:
   * a job read while still active has no return value, so a completed one is read again.
   */
  const jobResult = (id: string) =>
    until(`job ${id}`, async () => {
      const j = await queue.queue('customer-accounts').getJob(id);
      const state = await j?.getState();
      if (state === 'failed') throw new Error(`job failed: ${j?.failedReason}`);
      if (state !== 'completed') return undefined;
      return (await queue.queue('customer-accounts').getJob(id))!.returnvalue;
    });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
    app.inject({
      method,
      url,
      payload,
      headers: { ...viaProxy(HOST), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  const upload = (token: string, files: Parameters<typeof form>[0]) => {
    const f = form(files);
    return app.inject({
      method: 'PUT',
      url: '/store/customers/me/avatar',
      payload: f.payload,
      headers: { ...viaProxy(HOST), authorization: `Bearer ${token}`, 'content-type': f.type },
    });
  };
  const login = async (email: string, password = PASSWORD) =>
    app.inject({
      method: 'POST',
      url: '/auth/customer/emailpass',
      payload: { email, password },
      headers: viaProxy(HOST),
    });
  async function customer(email: string) {
    await seedVerifiedCustomer(fleet.registry, fleet.databases, email, PASSWORD);
    const res = await login(email);
    expect(res.statusCode, res.body).toBe(200);
    const row = await commerce()
      .selectFrom('customer')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { token: res.json().token as string, id: row.id as string, email };
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'shop' }]);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      testConfig(redis, sink, { LOGIN_RATE_MAX: '100' }),
    );
    await app.ready();
    queue = new QueueClient(createRedis(redis.url), redis.prefix);
  });
  afterAll(async () => {
    await app?.close();
    await queue?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('shows and changes my profile: language, notifications, names; the documents see the language', async () => {
    const me = await customer('profile@customer.localhost');
    await aplt()
      .insertInto('aplt_customers')
      .values({ email: 'Profile@Customer.localhost', company: 'Profile BV', country: 'NL' })
      .execute();
    const before = await call('GET', '/store/customers/me', me.token);
    expect(before.statusCode).toBe(200);
    expect(before.json().customer).toMatchObject({
      id: me.id,
      email: me.email,
      email_verified: true,
      preferred_language: 'nl',
      notifications: { orders: true, quotes: true, newsletter: false },
      avatar_url: null,
    });
    expect((await call('GET', '/store/customers/me')).statusCode).toBe(401);

    const put = await call('PUT', '/store/customers/me', me.token, {
      first_name: 'Jana',
      company_name: 'Jana BV',
      phone: '+31 (0)30-1234567',
      preferred_language: 'de',
      notifications: { newsletter: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().customer).toMatchObject({
      first_name: 'Jana',
      company_name: 'Jana BV',
      phone: '+31 (0)30-1234567',
      preferred_language: 'de',
      notifications: { orders: true, quotes: true, newsletter: true },
    });
    // Medusa's SDK updates with POST; partial notification changes keep the others.
    const post = await call('POST', '/store/customers/me', me.token, { notifications: { orders: false } });
    expect(post.json().customer.notifications).toEqual({ orders: false, quotes: true, newsletter: true });
    expect((await call('GET', '/store/customers/me', me.token)).json().customer.preferred_language).toBe(
      'de',
    );
    const mirrored = await aplt()
      .selectFrom('aplt_customers')
      .select(['language', 'metadata'])
      .where(sql`lower(email)`, '=', 'profile@customer.localhost')
      .executeTakeFirstOrThrow();
    expect(mirrored.language).toBe('de');
    expect(mirrored.metadata).toMatchObject({
      preferred_language: 'de',
      notifications: { orders: false, quotes: true, newsletter: true },
    });

    for (const [what, body] of [
      ['an unknown language', { preferred_language: 'fr' }],
      ['an unknown key', { email: 'other@x.io' }],
      ['nothing', {}],
      ['letters in the phone', { phone: 'call me' }],
      ['a NUL', { first_name: 'a\u0000' }],
      ['a non-boolean notification', { notifications: { orders: 'yes' } }],
      ['an unknown notification', { notifications: { sms: true } }],
      ['a long name', { last_name: 'x'.repeat(201) }],
    ] as const) {
      const res = await call('PUT', '/store/customers/me', me.token, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().type, what).toBe('invalid_data');
    }
  });

  it('takes a JPEG or PNG avatar of at most 2 MB by its content, stores it re-encoded and serves it only to me', async () => {
    const me = await customer('avatar@customer.localhost');
    const other = await customer('other-avatar@customer.localhost');
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    // Name and declared type are ignored: a PNG sent as "me.jpg", image/jpeg.
    const set = await upload(me.token, [{ name: 'file', filename: 'me.jpg', type: 'image/jpeg', data: png }]);
    expect(set.statusCode, set.body).toBe(200);
    const url: string = set.json().customer.avatar_url;
    expect(url).toMatch(/^\/store\/customers\/me\/avatar\?v=[0-9a-f]{16}$/);
    const got = await call('GET', url, me.token);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(got.rawPayload).metadata()).toMatchObject({ format: 'png', width: 512, height: 384 });
    const again = await app.inject({
      method: 'GET',
      url,
      headers: {
        ...viaProxy(HOST),
        authorization: `Bearer ${me.token}`,
        'if-none-match': String(got.headers.etag),
      },
    });
    expect(again.statusCode).toBe(304);
    // The other customer has none: the path names no id, so there is nobody else's to reach.
    expect((await call('GET', '/store/customers/me/avatar', other.token)).statusCode).toBe(404);
    expect((await call('GET', '/store/customers/me/avatar')).statusCode).toBe(401);

    const jpeg = await sharp({ create: { width: 100, height: 80, channels: 3, background: '#aa0000' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'home address' } })
      .toBuffer();
    const j = await upload(me.token, [{ name: 'file', filename: 'x.png', type: 'image/png', data: jpeg }]);
    expect(j.statusCode).toBe(200);
    const stored = (await call('GET', '/store/customers/me/avatar', me.token)).rawPayload;
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 80 });
    expect(meta.exif).toBeUndefined();

    const refused: Array<[string, Parameters<typeof form>[0], number]> = [
      [
        'over 2 MB',
        [
          {
            name: 'file',
            filename: 'a.jpg',
            type: 'image/jpeg',
            data: Buffer.concat([jpeg, Buffer.alloc(2 * 1024 * 1024)]),
          },
        ],
        413,
      ],
      [
        'a GIF',
        [
          {
            name: 'file',
            filename: 'a.jpg',
            type: 'image/jpeg',
            data: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
          },
        ],
        415,
      ],
      [
        'SVG',
        [
          {
            name: 'file',
            filename: 'a.png',
            type: 'image/png',
            data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          },
        ],
        415,
      ],
      [
        'JPEG magic with garbage',
        [
          {
            name: 'file',
            filename: 'a.jpg',
            type: 'image/jpeg',
            data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xdb]), Buffer.alloc(500, 7)]),
          },
        ],
        422,
      ],
      [
        'two files',
        [
          { name: 'file', filename: 'a.jpg', type: 'image/jpeg', data: jpeg },
          { name: 'file', filename: 'b.jpg', type: 'image/jpeg', data: jpeg },
        ],
        400,
      ],
      ['another field', [{ name: 'avatar', filename: 'a.jpg', type: 'image/jpeg', data: jpeg }], 400],
      ['no file', [], 400],
    ];
    for (const [what, files, status] of refused) {
      const res = await upload(me.token, files);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(res.json().type, what).toBeTypeOf('string');
    }
    const json = await call('PUT', '/store/customers/me/avatar', me.token, { file: 'x' });
    expect(json.statusCode).toBe(415);
    // The refused uploads left the stored avatar alone.
    expect((await call('GET', '/store/customers/me/avatar', me.token)).rawPayload.equals(stored)).toBe(true);

    const removed = await call('DELETE', '/store/customers/me/avatar', me.token);
    expect(removed.json().customer.avatar_url).toBeNull();
    expect((await call('GET', '/store/customers/me/avatar', me.token)).statusCode).toBe(404);
  });

  it('deletes my account: the token and sign-in stop at once, personal data goes after the grace period, documents stay', async () => {
    const me = await customer('leaving@customer.localhost');
    const apltCustomer = await aplt()
      .insertInto('aplt_customers')
      .values({
        email: me.email,
        first_name: 'Lea',
        last_name: 'Ving',
        phone: '0301234567',
        company: 'Leaving BV',
        city: 'Delft',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const invoice = await aplt()
      .insertInto('aplt_invoice_headers')
      .values({
        invoice_number: 'F-2026-0001',
        customer_id: apltCustomer.id,
        customer_name: 'Lea Ving',
        customer_email: me.email,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await aplt()
      .insertInto('aplt_customer_2fa')
      .values({ customer_email: me.email, is_enabled: true })
      .execute();
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(
      (await upload(me.token, [{ name: 'file', filename: 'a.png', type: 'image/png', data: png }]))
        .statusCode,
    ).toBe(200);

    const wrong = await call('DELETE', '/store/customers/me', me.token, { password: 'Not-The-Password-1' });
    expect(wrong.statusCode).toBe(401);
    expect((await call('DELETE', '/store/customers/me', me.token, {})).statusCode).toBe(400);
    expect((await call('GET', '/store/customers/me', me.token)).statusCode).toBe(200);

    const startedAt = Date.now();
    const del = await call('DELETE', '/store/customers/me', me.token, { password: PASSWORD });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ id: me.id, object: 'customer', deleted: true });
    const after = Date.parse(del.json().anonymise_after);
    expect(after).toBeGreaterThanOrEqual(startedAt + 30 * DAY);
    expect(after).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    expect(String(del.headers['set-cookie'])).toMatch(/_commerce_jwt=;/);

    // At once: the token is refused, sign-in is refused like an unknown account.
    expect((await call('GET', '/store/customers/me', me.token)).statusCode).toBe(401);
    expect((await call('GET', '/store/customer/2fa', me.token)).statusCode).toBe(401);
    expect((await login(me.email)).json()).toEqual({
      type: 'unauthorized',
      message: 'Invalid email or password',
    });
    // The aplt customer is soft-deleted with it; nothing is anonymised yet.
    const soft = await aplt()
      .selectFrom('aplt_customers')
      .selectAll()
      .where('id', '=', apltCustomer.id)
      .executeTakeFirstOrThrow();
    expect(soft.deleted_at).not.toBeNull();
    expect(soft).toMatchObject({ email: me.email, first_name: 'Lea', anonymized_at: null });

    // The delayed job is queued for the configured 30 days.
    const job = await queue.queue('customer-accounts').getJob(anonymiseJobId('shop', me.id));
    expect(job?.name).toBe('customer.anonymise');
    expect(job?.opts.delay).toBe(30 * DAY);
    expect(await job?.getState()).toBe('delayed');

    // Run it (by the auth process's real worker) as of day 29: not due, nothing changes.
    const run = async (asOf: number) => {
      const id = await queue.enqueue('customer-accounts', 'customer.anonymise', {
        tenantId: 'shop',
        customerId: me.id,
        asOf: new Date(asOf).toISOString(),
      });
      return jobResult(id);
    };
    expect(await run(startedAt + 29 * DAY)).toEqual({ result: 'not-due' });
    expect(
      await commerce()
        .selectFrom('customer')
        .select(['email', 'anonymised_at'])
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ email: me.email, anonymised_at: null });

    // As of day 30 and a minute: anonymised on both sides, documents untouched.
    expect(await run(Date.now() + 30 * DAY + 60_000)).toEqual({ result: 'anonymised' });
    const gone = await commerce()
      .selectFrom('customer')
      .selectAll()
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(gone).toMatchObject({
      email: `deleted-${me.id}@anonymised.invalid`,
      first_name: null,
      last_name: null,
      phone: null,
      company_name: null,
    });
    expect(gone.anonymised_at).not.toBeNull();
    expect(Object.keys(gone.metadata ?? {})).toEqual(['anonymised_at']);
    expect(
      await commerce()
        .selectFrom('customer_avatar')
        .select('customer_id')
        .where('customer_id', '=', me.id)
        .execute(),
    ).toEqual([]);
    expect(
      await commerce()
        .selectFrom('provider_identity')
        .select('id')
        .where('entity_id', '=', me.email)
        .execute(),
    ).toEqual([]);
    const anon = await aplt()
      .selectFrom('aplt_customers')
      .selectAll()
      .where('id', '=', apltCustomer.id)
      .executeTakeFirstOrThrow();
    expect(anon).toMatchObject({
      email: null,
      first_name: null,
      last_name: null,
      phone: null,
      city: null,
      company: 'Leaving BV',
    });
    expect(anon.anonymized_at).not.toBeNull();
    expect(
      await aplt()
        .selectFrom('aplt_customer_2fa')
        .select('id')
        .where('customer_email', '=', me.email)
        .execute(),
    ).toEqual([]);
    const kept = await aplt()
      .selectFrom('aplt_invoice_headers')
      .selectAll()
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({
      invoice_number: 'F-2026-0001',
      customer_name: 'Lea Ving',
      customer_id: apltCustomer.id,
    });
    // Running it again changes nothing; the e-mail address is free for a new account.
    expect(await run(Date.now() + 31 * DAY)).toEqual({ result: 'not-due' });
    const again = await app.inject({
      method: 'POST',
      url: '/store/customers',
      payload: { email: me.email, password: PASSWORD },
      headers: viaProxy(HOST),
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('the daily sweep anonymises a deletion whose own job was lost, and only past the grace period', async () => {
    const me = await customer('lost-job@customer.localhost');
    expect((await call('DELETE', '/store/customers/me', me.token, { password: PASSWORD })).statusCode).toBe(
      200,
    );
    await (await queue.queue('customer-accounts').getJob(anonymiseJobId('shop', me.id)))!.remove();
    const sweep = async (asOf: number) => {
      const id = await queue.enqueue('customer-accounts', 'customers.anonymise-due', {
        asOf: new Date(asOf).toISOString(),
      });
      return jobResult(id);
    };
    expect((await sweep(Date.now() + 10 * DAY)).anonymised.shop).not.toContain(me.id);
    expect((await sweep(Date.now() + 30 * DAY + 60_000)).anonymised.shop).toContain(me.id);
    const row = await commerce()
      .selectFrom('customer')
      .select('email')
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(`deleted-${me.id}@anonymised.invalid`);
  });
});
