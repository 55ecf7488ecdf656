import { Agent, type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestProxy, type TestProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT, MULTIPART_OVERHEAD } from '../src/body-limits';
import { type ModalHarness, multipart, startHarness, vectorLogo } from './helpers';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
  /** Whether the request went out on a connection an earlier request had used. */
  reusedSocket: boolean;
}

/**
 * A real HTTP client that streams `body` in 64 kB writes, with Content-Length or chunked, and
 * reads the answer: what a browser or a webshop server does, and what Caddy does upstream.
 */
function stream(
  port: number,
  path: string,
  opts: { body: Buffer; type: string; chunked?: boolean; agent?: Agent },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: opts.agent ?? false,
        headers: {
          host: 'modal.localhost',
          'content-type': opts.type,
          ...(opts.chunked ? {} : { 'content-length': String(opts.body.length) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: text ? JSON.parse(text) : undefined,
            reusedSocket: req.reusedSocket,
          });
        });
      },
    );
    req.on('error', reject);
    let offset = 0;
    const write = () => {
      while (offset < opts.body.length) {
        const chunk = opts.body.subarray(offset, offset + 65_536);
        offset += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

const jsonOf = (value: unknown) => Buffer.from(JSON.stringify(value));
/** A transaction body of exactly `bytes` bytes, valid but for its size (logoConfig takes any keys). */
const transactionOfSize = (bytes: number) => {
  const logoConfig: Record<string, string> = {};
  const size = () => jsonOf({ productSku: '900-01', logoConfig }).length;
  for (let i = 0; size() + 520 < bytes; i++) logoConfig[`k${i}`] = 'x'.repeat(500);
  logoConfig.pad = '';
  logoConfig.pad = 'x'.repeat(bytes - size());
  return jsonOf({ productSku: '900-01', logoConfig });
};

describe('bad strings in the modal API answer 400', () => {
  let h: ModalHarness;
  beforeAll(async () => {
    h = await startHarness({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a NUL byte or a lone surrogate anywhere in a POST /api/transactions body', async () => {
    for (const raw of [
      '{"productSku":"900-01","basketId":"b\\u0000"}',
      '{"productSku":"900-01\\u0000"}',
      '{"productSku":"900-01","logoConfig":{"note":"\\ud800"}}',
      '{"productSku":"900-01","logoConfig":{"\\udc00key":"v"}}',
      '{"productSku":"900-01","logoConfig":{"colors":["#FFFFFF","\\u0000"]}}',
      '{"productSku":"900-01","callbackUrl":"http://93.184.216.34/\\u0000"}',
      '{"productSku":"900-01","source":"\\ud83d"}',
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/transactions',
        headers: { 'content-type': 'application/json' },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json(), raw).toMatchObject({ type: 'invalid_data' });
      expect(res.json().issues[0].path, raw).toMatch(/^body\./);
    }
    // A well-formed surrogate pair is fine.
    const emoji = await h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01', basketId: '\ud83d\ude00' },
    });
    expect(emoji.statusCode, emoji.body).toBe(201);
  });

  it('refuses them in the add-to-order body and in path parameters', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01' },
    });
    const id = created.json().transaction_id as string;
    const add = await h.app.inject({
      method: 'POST',
      url: `/api/transactions/${id}/add-to-order`,
      headers: { 'content-type': 'application/json' },
      payload: '{"selectedColor":"red\\u0000"}',
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().issues[0].path).toBe('body.selectedColor');
    for (const url of [
      '/api/transactions/%00',
      '/api/config-check/900-01%00',
      `/api/transactions/${id}%00/pdf`,
    ]) {
      const res = await h.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });

  it('checks the multipart parts it parses itself: a NUL in the file name or a field is a 400', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01' },
    });
    const id = created.json().transaction_id as string;
    const boundary = '----nul-test';
    const part = (disposition: string, type: string | undefined, data: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${data}\r\n`;
    for (const [what, body] of [
      ['file name', part(`name="file"; filename="lo\u0000go.svg"`, 'image/svg+xml', vectorLogo)],
      ['encoded file name', part(`name="file"; filename*=UTF-8''lo%00go.svg`, 'image/svg+xml', vectorLogo)],
      [
        'field before the file',
        part('name="note"', undefined, 'a\u0000b') +
          part('name="file"; filename="logo.svg"', 'image/svg+xml', vectorLogo),
      ],
    ] as const) {
      const res = await h.app.inject({
        method: 'POST',
        url: `/api/transactions/${id}/logo`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.from(`${body}--${boundary}--\r\n`, 'latin1'),
      });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    // The same upload with clean names is accepted.
    const m = multipart('logo.svg', 'image/svg+xml', vectorLogo);
    const ok = await h.app.inject({
      method: 'POST',
      url: `/api/transactions/${id}/logo`,
      payload: m.body,
      headers: m.headers,
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('oversized bodies answer 413 from the service, directly and through the proxy', () => {
  let h: ModalHarness;
  let proxy: TestProxy;
  let direct: number;
  let id: string;

  beforeAll(async () => {
    h = await startHarness({ WRITE_RATE_LIMIT_PER_MINUTE: '100000' });
    // The modal host is public (no forward auth): only the modal is behind this proxy.
    proxy = await startTestProxy({ 'logo-modal': h.app });
    direct = (h.app.server.address() as AddressInfo).port;
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01' },
    });
    id = created.json().transaction_id as string;
  });
  afterAll(async () => {
    await proxy?.stop();
    await h?.close();
  });

  const twoMegabytes = () => jsonOf({ productSku: '900-01', basketId: 'x'.repeat(2 * 1024 * 1024) });
  const bigUpload = (bytes: number) => multipart('big.png', 'image/png', Buffer.alloc(bytes, 1));

  it('accepts JSON up to its limit and refuses a byte over it with the fleet body', async () => {
    const fits = transactionOfSize(JSON_BODY_LIMIT);
    expect(fits.length).toBe(JSON_BODY_LIMIT);
    const ok = await stream(direct, '/api/transactions', { body: fits, type: 'application/json' });
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    const over = transactionOfSize(JSON_BODY_LIMIT + 1);
    const refused = await stream(direct, '/api/transactions', { body: over, type: 'application/json' });
    expect(refused.status).toBe(413);
    expect(refused.json).toMatchObject({ type: 'payload_too_large', limit_bytes: JSON_BODY_LIMIT });
  });

  it('reads a streamed 2 MB JSON body to its end before answering 413, so the connection stays usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const chunked of [false, true]) {
        const res = await stream(direct, '/api/transactions', {
          body: twoMegabytes(),
          type: 'application/json',
          chunked,
          agent,
        });
        expect(res.status, `chunked: ${chunked}`).toBe(413);
        expect(res.json).toMatchObject({ type: 'payload_too_large' });
        expect(res.headers.connection, `chunked: ${chunked}`).not.toBe('close');
      }
      // Both refusals and this request went over one connection: each body was read to its end.
      const next = await stream(direct, '/api/transactions', {
        body: jsonOf({ productSku: '900-01' }),
        type: 'application/json',
        agent,
      });
      expect(next.status).toBe(201);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('answers 413 through the proxy for a 2 MB JSON body, never 502', async () => {
    for (let i = 0; i < 3; i++)
      for (const chunked of [false, true]) {
        const res = await stream(proxy.port, '/api/transactions', {
          body: twoMegabytes(),
          type: 'application/json',
          chunked,
        });
        expect(res.status, `attempt ${i}, chunked: ${chunked}`).toBe(413);
        expect(res.json).toMatchObject({ type: 'payload_too_large' });
      }
  });

  it('answers 413 for a logo over UPLOAD_MAX_BYTES, by its Content-Length or by counting, directly and through the proxy', async () => {
    const total = h.config.UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD;
    for (const port of [direct, proxy.port]) {
      // Declared too large (6 MB; the proxy's own limit for the modal is above it): refused before parsing.
      const declared = bigUpload(6 * 1024 * 1024);
      const byLength = await stream(port, `/api/transactions/${id}/logo`, {
        body: declared.body,
        type: declared.headers['content-type'],
      });
      expect(byLength.status).toBe(413);
      expect(byLength.json).toEqual({
        type: 'payload_too_large',
        message: `The request body is larger than ${total} bytes`,
        limit_bytes: total,
      });
      // Sent without a length: the file limit stops it.
      const counted = bigUpload(h.config.UPLOAD_MAX_BYTES + 1);
      const byCount = await stream(port, `/api/transactions/${id}/logo`, {
        body: counted.body,
        type: counted.headers['content-type'],
        chunked: true,
      });
      expect(byCount.status).toBe(413);
      expect(byCount.json).toMatchObject({
        type: 'payload_too_large',
        limit_bytes: h.config.UPLOAD_MAX_BYTES,
      });
    }
  });
});
