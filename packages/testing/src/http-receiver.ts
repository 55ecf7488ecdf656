import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  // Tests read a received body by its fields without declaring its type (six call sites across the
  // services, the portal's among them); `unknown` would make every one declare a type first.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  json<T = any>(): T;
}

export interface HttpReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decide the answer per request; default 200 {success: true}. */
  respondWith(
    fn: (
      req: ReceivedRequest,
      index: number,
    ) => { status: number; body?: unknown; headers?: Record<string, string> },
  ): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback standing in for a system we do not own (webhook receiver, API). */
export async function startHttpReceiver(host = '127.0.0.1'): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Parameters<HttpReceiver['respondWith']>[0] = () => ({
    status: 200,
    body: { success: true },
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        json: () => JSON.parse(body.toString('utf8')),
      };
      const index = requests.push(received) - 1;
      const answer = responder(received, index);
      const payload =
        answer.body === undefined
          ? ''
          : typeof answer.body === 'string'
            ? answer.body
            : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    respondWith(fn) {
      responder = fn;
    },
    async waitForRequests(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} requests, got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return requests.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
