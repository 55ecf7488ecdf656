import { Agent, type ClientRequest, request } from 'node:http';
import {
  createTestMysqlDatabase,
  startTestProxy,
  type TestMysqlDatabase,
  type TestProxy,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { logOtpChannel } from '@aplt/mail';
import { loadConfig } from '../src/config';
import { type CsrfPair, csrfPair, withCsrf } from './helpers';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
  reusedSocket: boolean;
}

/** A real HTTP client streaming `body` in 64 kB writes, with Content-Length or chunked. */
function stream(
  port: number,
  path: string,
  body: Buffer,
  opts: { chunked?: boolean; agent?: Agent; type?: string; csrf?: CsrfPair } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req: ClientRequest = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: opts.agent ?? false,
        headers: {
          host: 'portal.localhost',
          'content-type': opts.type ?? 'application/json',
          ...(opts.csrf ? withCsrf(opts.csrf) : {}),
          ...(opts.chunked ? {} : { 'content-length': String(body.length) }),
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
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + 65_536);
        offset += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('portal: oversized bodies answer 413 from the service, directly and through the proxy', () => {
  let mysql: TestMysqlDatabase;
  let proxy: TestProxy;
  let direct: number;
  let otp: ReturnType<typeof logOtpChannel>;
  let csrf: CsrfPair;
  // Over the portal's 1 MiB, under the proxy's own limit for the portal host.
  const big = Buffer.from(JSON.stringify({ email: 'a@client.test', password: 'x'.repeat(1_500_000) }));

  beforeAll(async () => {
    mysql = await createTestMysqlDatabase();
    const config = loadConfig({
      ...process.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      PORTAL_BCRYPT_ROUNDS: '4',
    });
    otp = logOtpChannel({ warn: () => {} }, 'portal verification code');
    const app = await buildApp({ db: mysql.db, otp }, config);
    csrf = await csrfPair(app);
    proxy = await startTestProxy({ portal: app });
    direct = proxy.ports.portal!;
  });
  afterAll(async () => {
    await proxy?.stop();
    otp?.close();
    await mysql?.drop();
  });

  it('reads the whole body before answering 413, so the connection stays usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const chunked of [false, true]) {
        const res = await stream(direct, '/api/auth/login', big, { chunked, agent, csrf });
        expect(res.status, `chunked: ${chunked}`).toBe(413);
        expect(res.json).toMatchObject({ type: 'payload_too_large' });
        expect(res.headers.connection).not.toBe('close');
      }
      const next = await stream(direct, '/api/auth/logout', Buffer.from('{}'), { agent, csrf });
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('answers 413 through the proxy, never 502', async () => {
    for (let i = 0; i < 3; i++)
      for (const chunked of [false, true]) {
        const res = await stream(proxy.port, '/api/auth/login', big, { chunked, csrf });
        expect(res.status, `attempt ${i}, chunked: ${chunked}`).toBe(413);
        expect(res.json).toMatchObject({ type: 'payload_too_large' });
      }
  });

  it('delivers an early refusal (a form post, 415) through the proxy while the body is still coming', async () => {
    for (const chunked of [false, true]) {
      const res = await stream(proxy.port, '/api/auth/login', Buffer.alloc(900_000, 'a'), {
        chunked,
        type: 'application/x-www-form-urlencoded',
      });
      expect(res.status, `chunked: ${chunked}`).toBe(415);
      expect(res.json).toMatchObject({ type: 'unsupported_media_type' });
    }
  });
});
