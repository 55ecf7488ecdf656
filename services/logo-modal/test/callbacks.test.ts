import { startHttpReceiver, type HttpReceiver } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverCallback } from '../src/callbacks/callback.service';
import { assertCallbackTarget, CallbackTargetRefused, isBlockedAddress } from '../src/callbacks/ssrf';
import { type ModalHarness, multipart, startHarness, vectorLogo } from './helpers';

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

async function waitForCallbackStatus(h: ModalHarness, id: string, status: string) {
  const db = h.fleet.tenantDbs.get('master')?.aplt.db;
  for (;;) {
    const row = await db
      ?.selectFrom('aplt_logo_transactions')
      .select(['callback_status', 'callback_attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row?.callback_status === status) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('callback SSRF guard without the development flag', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    h = await startHarness({ CALLBACK_ALLOW_PRIVATE: 'false' });
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('refuses loopback, private, link-local and non-http callback addresses at creation (400)', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:9/x',
      'http://10.1.2.3/cb',
      'http://192.168.1.10/cb',
      'http://172.20.0.1/cb',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/cb',
      'http://[::ffff:127.0.0.1]/cb',
      'http://0.0.0.0/cb',
      'ftp://example.com/cb',
      'not a url',
      'http://user:pw@example.com/cb',
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/transactions',
        payload: { productSku: '900-01', callbackUrl: url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111'])
      expect(isBlockedAddress(a), a).toBe(false);
  });

  it('refuses at delivery too, whatever the address was when created', async () => {
    await expect(
      deliverCallback({
        url: `${receiver.url}/x`,
        body: {},
        secret: 's',
        allowPrivate: false,
        timeoutMs: 2000,
        transactionId: 't',
      }),
    ).rejects.toBeInstanceOf(CallbackTargetRefused);
    await expect(
      deliverCallback({
        url: `http://localhost:${receiver.port}/x`,
        body: {},
        secret: 's',
        allowPrivate: false,
        timeoutMs: 2000,
        transactionId: 't',
      }),
    ).rejects.toThrow(/refused/);
    expect(receiver.requests).toHaveLength(0);
    await expect(assertCallbackTarget('http://localhost/x', false)).rejects.toBeInstanceOf(
      CallbackTargetRefused,
    );
  });
});

describe('callback delivery from the queue', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    // The API accepts the loopback receiver; the worker of the second check runs without the flag.
    h = await startHarness({ CALLBACK_SECRETS: 'shop-a=secret-of-shop-a' });
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
    const { createHmac } = await import('node:crypto');
    const last = requests[2];
    const ts = String(last?.headers['x-aplt-timestamp']);
    expect(last?.headers['x-aplt-signature']).toBe(
      `sha256=${createHmac('sha256', 'secret-of-shop-a').update(`${ts}.${last?.body.toString()}`).digest('hex')}`,
    );
  });
});

describe('callback worker without the development flag', () => {
  let h: ModalHarness;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    h = await startHarness({}, { CALLBACK_ALLOW_PRIVATE: 'false' });
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('marks a refused target failed at once, without retrying and without a request', async () => {
    const id = await orderWithCallback(h, `${receiver.url}/cb`);
    const row = await waitForCallbackStatus(h, id, 'failed');
    expect(row.callback_attempts).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });
});
