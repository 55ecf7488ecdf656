import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceEndpoints } from '../src';

describe('a service at several addresses', () => {
  const servers: Server[] = [];
  const urls: string[] = [];
  const seen: string[] = [];
  let closedUrl: string;

  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const server = createServer((req, res) => {
        seen.push(`${name} ${req.method} ${req.url}`);
        res.writeHead(name === 'b' && req.url === '/missing' ? 404 : 200).end(name);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    // A port that was just free: nothing listens there.
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((r) => gone.close(r));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('starts each call at the next replica in turn', async () => {
    const service = new ServiceEndpoints(`${urls[0]}, ${urls[1]}/`);
    seen.length = 0;
    const bodies = [];
    for (let i = 0; i < 4; i++) bodies.push(await (await service.fetch('/x?q=1')).text());
    expect(bodies).toEqual(['a', 'b', 'a', 'b']);
    expect(seen).toEqual(['a GET /x?q=1', 'b GET /x?q=1', 'a GET /x?q=1', 'b GET /x?q=1']);
  });

  it('moves on from a replica that does not answer, and takes any status as the answer', async () => {
    const service = new ServiceEndpoints([closedUrl, urls[1]!]);
    for (let i = 0; i < 3; i++)
      expect(await (await service.fetch('/x', { method: 'POST', body: 'b' })).text()).toBe('b');
    expect((await service.fetch('/missing')).status).toBe(404);
    await expect(new ServiceEndpoints(closedUrl).fetch('/x')).rejects.toThrow();
  });

  it('refuses an empty or malformed list at construction', () => {
    expect(() => new ServiceEndpoints(' , ')).toThrow(/at least one URL/);
    expect(() => new ServiceEndpoints('not a url')).toThrow();
  });
});
