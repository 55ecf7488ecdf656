import { request as httpReq } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text(): string;
  // Tests read an answer by its fields without declaring its type (some 400 call sites across the
  // services, the portal's among them); `unknown` would make every one declare a type first.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  json<T = any>(): T;
}

/**
 * A plain node:http request, because tests must send a Host header (fetch drops it) and may
 * bind to another loopback address (`localAddress: '127.0.0.2'`) to act as another client.
 */
export function httpRequest(
  url: string,
  opts: {
    method?: string;
    host?: string;
    headers?: Record<string, string>;
    body?: string | Buffer | object;
    localAddress?: string;
    /** No answer within this time fails the request by name, not the whole test by its timeout. */
    timeoutMs?: number;
  } = {},
): Promise<HttpResponse> {
  const u = new URL(url);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let payload: Buffer | undefined;
  if (opts.body !== undefined) {
    if (Buffer.isBuffer(opts.body) || typeof opts.body === 'string') payload = Buffer.from(opts.body);
    else {
      payload = Buffer.from(JSON.stringify(opts.body));
      headers['content-type'] ??= 'application/json';
    }
    headers['content-length'] = String(payload.length);
  }
  if (opts.host) headers.host = opts.host;
  return new Promise((resolve, reject) => {
    const req = httpReq(
      {
        hostname: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? 'GET',
        headers,
        localAddress: opts.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString('utf8'),
            json: () => JSON.parse(body.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    const timeoutMs = opts.timeoutMs ?? 30_000;
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        new Error(`${opts.method ?? 'GET'} ${url} (${opts.host ?? u.host}): no answer in ${timeoutMs} ms`),
      ),
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * The status of an upload the server may refuse before reading it, or 'reset'. Caddy answers an
 * unauthenticated request from forward auth without reading its body, and Go's server then closes
 * a `Connection: close` connection (node:http's without an agent) with the body unread: the kernel
 * resets it, and a reset that reaches the client while it is still writing destroys the request
 * before its answer is read. Either way nothing was let through.
 */
export async function statusOrReset(answer: Promise<HttpResponse>): Promise<number | 'reset'> {
  try {
    return (await answer).status;
  } catch (err) {
    if (isConnectionReset(err)) return 'reset';
    throw err;
  }
}

/** A request's error saying the server dropped the connection under it (reset, or gone mid-write). */
export const isConnectionReset = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
};
