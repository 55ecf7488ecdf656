import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flushLogs } from '@aplt/http';
import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessAppForTest } from './access-app';

const fwd = {
  'x-forwarded-method': 'GET',
  'x-forwarded-host': 'acme.localhost',
  'x-forwarded-uri': '/app?x=1',
};

describe('request logging of the access service as production runs it (LOG_LEVEL=info)', () => {
  let fleet: TestFleet;
  const dir = mkdtempSync(join(tmpdir(), 'aplt-access-log-'));
  const file = join(dir, 'access.log');
  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
  });
  afterAll(async () => {
    await fleet?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one decision line per forward-auth request and one line per other request', async () => {
    const app = await createAccessAppForTest(fleet.registry, { LOG_LEVEL: 'info' }, { logDestination: file });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Through the trusted proxy at 127.0.0.1: loopback itself is whitelisted, 192.0.2.50 is not.
    const allow = await fetch(`${base}/api/validate`, { headers: { ...fwd, 'x-request-id': 'req-allow' } });
    const deny = await fetch(`${base}/api/validate`, {
      headers: {
        ...fwd,
        'x-forwarded-for': '192.0.2.50',
        accept: 'application/json',
        'x-request-id': 'req-deny',
      },
    });
    const health = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'req-health' } });
    expect([allow.status, deny.status, health.status]).toEqual([200, 401, 200]);
    await app.close();
    await flushLogs(app.log);

    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const of = (id: string) => lines.filter((l) => l.reqId === id);
    expect(of('req-allow')).toEqual([
      expect.objectContaining({
        level: 30,
        service: 'access',
        msg: 'forward auth',
        decision: 'allow',
        reason: 'whitelist',
        ip: '127.0.0.1',
        host: 'acme.localhost',
      }),
    ]);
    expect(of('req-deny')).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'forward auth',
        decision: 'deny',
        ip: '192.0.2.50',
        host: 'acme.localhost',
        uri: '/app?x=1',
      }),
    ]);
    expect(of('req-health')).toEqual([
      expect.objectContaining({ level: 30, msg: 'request completed', url: '/healthz', statusCode: 200 }),
    ]);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });
});
