import { createHmac, randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { ConfigError } from '@aplt/config';
import { startHttpReceiver, type HttpReceiver, testSecrets } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverCallback } from '../src/callbacks/callback.service';
import {
  CallbackTargetRefused,
  CallbackTargets,
  classifyAddress,
  parseNetworks,
} from '../src/callbacks/ssrf';
import { loadConfig } from '../src/config';
import { LOOPBACK_NETWORKS, type ModalHarness, multipart, startHarness, vectorLogo } from './helpers';

async function orderWithCallback(h: ModalHarness, callbackUrl: string) {
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/transactions',
    payload: { productSku: '900-01', techniqueCode: 'ZEEFDRUK', quantity: 10, callbackUrl, source: 'shop-a' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().transaction_id as string;
  const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
  await h.app.inject({
    method: 'POST',
    url: `/api/transactions/${id}/logo`,
    payload: m.body,
    headers: m.headers,
  });
  const added = await h.app.inject({
    method: 'POST',
    url: `/api/transactions/${id}/add-to-order`,
    payload: {},
  });
  expect(added.statusCode, added.body).toBe(200);
  return id;
}

/**
 * Polls the transaction until its callback reaches `status`; fails with the last state seen once
 * the deadline passes (the queue retries with 1 s, 2 s ... backoff, so a few seconds suffice).
 */
async function waitForCallbackStatus(h: ModalHarness, id: string, status: string, timeoutMs = 30_000) {
  const db = h.fleet.tenantDbs.get('master')?.aplt.db;
  if (!db) throw new Error('no aplt database for tenant master');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db
      .selectFrom('aplt_logo_transactions')
      .select(['callback_status', 'callback_attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.callback_status === status) return row;
    if (Date.now() > deadline)
      throw new Error(
        `transaction ${id}: callback_status still ${String(row.callback_status)} after ` +
          `${row.callback_attempts} attempts and ${timeoutMs} ms, expected ${status}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Addresses a callback must never reach, each with why (the issue's list first). */
const refusedAddresses: Array<[string, RegExp]> = [
  ['http://[::7f00:1]/', /IPv4-compatible form of 127\.0\.0\.1 \(loopback\)/],
  ['http://[::ffff:0:7f00:1]/', /IPv4-translated form of 127\.0\.0\.1 \(loopback\)/],
  ['http://[::ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1 \(loopback\)/],
  ['http://[64:ff9b:1::a00:1]/', /local-use NAT64/],
  ['http://[64:ff9b::a9fe:a9fe]/', /NAT64 form of 169\.254\.169\.254 \(linkLocal\)/],
  ['http://[2002:7f00:1::]/', /6to4 form of 127\.0\.0\.1 \(loopback\)/],
  // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (80ff:fffe).
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /Teredo form of 127\.0\.0\.1 \(loopback\)/],
  ['http://192.0.2.1/', /reserved/],
  ['http://198.51.100.7/', /reserved/],
  ['http://203.0.113.9/', /reserved/],
  ['http://[2001:db8::1]/', /reserved/],
  ['http://[3fff::1]/', /reserved/],
  ['http://169.254.169.254/latest/meta-data', /linkLocal/],
  ['http://100.64.0.1/', /carrierGradeNat/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://127.0.0.1:9/cb', /loopback/],
  ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
  ['http://[::1]:8080/cb', /loopback/],
  ['http://10.1.2.3/cb', /private/],
  ['http://172.20.0.1/cb', /private/],
  ['http://192.168.1.10/cb', /private/],
  ['http://[fd00::1]/', /uniqueLocal/],
  ['http://[fe80::1]/', /linkLocal/],
  ['http://224.0.0.1/', /multicast/],
  ['http://[ff02::1]/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://[100::1]/', /discard/],
  ['http://[::1:2:3:4]/', /outside the global unicast space/],
  ['http://localhost:9/x', /localhost resolves to a refused address/],
  ['ftp://example.com/cb', /must use http or https/],
  ['not a url', /not a valid URL/],
  ['http://user:pw@example.com/cb', /must not carry credentials/],
];

describe('callback SSRF guard (no allowance, as in production)', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    h = await startHarness({ CALLBACK_ALLOWED_NETWORKS: '' });
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  const create = (callbackUrl: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01', callbackUrl },
    });

  it('refuses loopback, private, link-local, CGNAT, documentation, transition forms of those, and non-http at creation: 400 naming callbackUrl', async () => {
    for (const [url, why] of [...refusedAddresses, [receiver.url, /loopback/] as [string, RegExp]]) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(400);
      const body = res.json();
      expect(body, url).toMatchObject({ type: 'invalid_data', field: 'callbackUrl' });
      expect(body.message, url).toMatch(/^callbackUrl /);
      expect(body.message, url).toMatch(why);
      expect(body.issues, url).toEqual([{ path: 'body.callbackUrl', message: body.message }]);
    }
  });

  it('accepts public addresses (IPv4, IPv6, and a transition form of a public IPv4)', async () => {
    for (const url of [
      'http://93.184.216.34/cb',
      'https://[2606:4700:4700::1111]/hook',
      'http://[::ffff:8.8.8.8]/cb',
      'http://[2002:5db8:d822::1]/cb',
    ]) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(201);
      expect(res.json().callback_url).toBe(new URL(url).toString());
    }
  });

  it('classifies addresses with ipaddr.js after unwrapping embedded IPv4 addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '192.0.2.1',
      '0.0.0.0',
      '::',
      '::1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::a00:1',
      '64:ff9b:1::808:808',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:db8::1',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      'not-an-address',
    ])
      expect(classifyAddress(a).allowed, a).toBe(false);
    for (const a of [
      '93.184.216.34',
      '8.8.8.8',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      // Teredo server and client both public.
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ])
      expect(classifyAddress(a).allowed, a).toBe(true);
  });

  it('lets configured networks through, and only those', () => {
    const loopback = parseNetworks(LOOPBACK_NETWORKS.split(','));
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
      expect(classifyAddress(a, loopback), a).toMatchObject({ allowed: true, byAllowance: true });
    for (const a of ['10.0.0.1', '169.254.169.254', '::ffff:10.0.0.1', '192.0.2.1'])
      expect(classifyAddress(a, loopback).allowed, a).toBe(false);
  });

  it('refuses at delivery too, whatever the address was when created: literals before connecting, names in the agent lookup', async () => {
    const targets = new CallbackTargets([]);
    try {
      const deliver = (url: string) =>
        deliverCallback({
          url,
          body: {},
          secret: testSecrets().CALLBACK_DEFAULT_SECRET,
          targets,
          timeoutMs: 2000,
          transactionId: 't',
        });
      await expect(deliver(`${receiver.url}/x`)).rejects.toBeInstanceOf(CallbackTargetRefused);
      await expect(deliver(`http://[::ffff:127.0.0.1]:${receiver.port}/x`)).rejects.toBeInstanceOf(
        CallbackTargetRefused,
      );
      await expect(deliver(`http://localhost:${receiver.port}/x`)).rejects.toThrow(/refused address/);
      expect(receiver.requests).toHaveLength(0);

      // The lookup the agents connect with refuses a name whose answer is refused.
      const looked = await new Promise<Error | LookupAddress[]>((resolve) =>
        targets.lookup('localhost', { all: true }, (err, addresses) =>
          resolve(err ?? (addresses as unknown as LookupAddress[])),
        ),
      );
      expect(looked).toBeInstanceOf(CallbackTargetRefused);
      await expect(targets.check('http://localhost/x', 'callbackUrl')).rejects.toBeInstanceOf(
        CallbackTargetRefused,
      );
    } finally {
      targets.close();
    }
  });
});

describe('callback delivery from the queue', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  const shopSecret = randomBytes(32).toString('base64url');
  beforeAll(async () => {
    // The receiver on this machine is reached through the explicit loopback allowance.
    h = await startHarness({ CALLBACK_SECRETS: `shop-a=${shopSecret}` });
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('retries with backoff until the receiver answers 200, then records delivery', async () => {
    receiver.respondWith((_req, i) =>
      i < 2 ? { status: 503, body: { busy: true } } : { status: 200, body: { success: true } },
    );
    const id = await orderWithCallback(h, `${receiver.url}/cb`);
    const row = await waitForCallbackStatus(h, id, 'delivered');
    expect(row.callback_attempts).toBe(3);
    const requests = await receiver.waitForRequests(3);
    // Same body every attempt; signed with the integration's own secret (source shop-a).
    expect(new Set(requests.map((r) => r.body.toString())).size).toBe(1);
    const last = requests[2];
    const ts = String(last?.headers['x-aplt-timestamp']);
    expect(last?.headers['x-aplt-signature']).toBe(
      `sha256=${createHmac('sha256', shopSecret).update(`${ts}.${last?.body.toString()}`).digest('hex')}`,
    );
  });
});

describe('callback worker without the allowance', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    // The API accepts the loopback receiver; the worker (as after a DNS change) does not.
    h = await startHarness({}, { CALLBACK_ALLOWED_NETWORKS: '' });
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('marks a refused target failed at once, without retrying and without a request', async () => {
    const id = await orderWithCallback(h, `http://localhost:${receiver.port}/cb`);
    const row = await waitForCallbackStatus(h, id, 'failed');
    expect(row.callback_attempts).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('callback configuration', () => {
  const base = { CALLBACK_DEFAULT_SECRET: testSecrets().CALLBACK_DEFAULT_SECRET };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) return err.problems.join('\n');
      throw err;
    }
    return '';
  };

  it('demands a real default secret: none, a published one or a short one stops the service', () => {
    expect(problems({})).toMatch(/CALLBACK_DEFAULT_SECRET: .*\(missing\)/);
    expect(problems({ CALLBACK_DEFAULT_SECRET: 'dev-only-callback-secret-change-me' })).toMatch(
      /CALLBACK_DEFAULT_SECRET: is a published or placeholder value.*\(value hidden\)/,
    );
    expect(problems({ CALLBACK_DEFAULT_SECRET: 'short' })).toMatch(
      /CALLBACK_DEFAULT_SECRET: must be at least/,
    );
    expect(problems(base)).toBe('');
  });

  it('demands real per-integration secrets and valid allowed networks, never echoing a secret', () => {
    const out = problems({
      ...base,
      CALLBACK_SECRETS: 'shop-a=secret-of-shop-a',
      CALLBACK_ALLOWED_NETWORKS: 'x/8',
    });
    expect(out).toMatch(
      /CALLBACK_SECRETS\.0: secret of shop-a must be at least 32 characters \(value hidden\)/,
    );
    expect(out).toMatch(/CALLBACK_ALLOWED_NETWORKS\.0: expected a CIDR/);
    expect(out).not.toContain('secret-of-shop-a');
    expect(
      loadConfig({ ...base, CALLBACK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1' }).CALLBACK_ALLOWED_NETWORKS,
    ).toEqual(['127.0.0.0/8', '::1']);
  });
});
