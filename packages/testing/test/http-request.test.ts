import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, statusOrReset } from '../src/http-request';

describe('statusOrReset: an upload refused before it was read', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    // /reset drops the connection as soon as the headers are in, with the body unread; /refuse
    // answers 401 after reading it.
    server = createServer((req, res) => {
      if (req.url === '/reset') return req.socket.resetAndDestroy();
      req.resume().on('end', () => res.writeHead(401).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const upload = (path: string) =>
    httpRequest(`${url}${path}`, { method: 'POST', body: Buffer.alloc(4_000_000, 1) });

  it('gives the status of an answer, and "reset" for a connection reset under the upload', async () => {
    expect(await statusOrReset(upload('/refuse'))).toBe(401);
    expect(await statusOrReset(upload('/reset'))).toBe('reset');
  });

  it('passes on any other failure, such as a refused connection', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    await expect(
      statusOrReset(httpRequest(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x' })),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
