import { Agent, request } from 'node:http';

export interface LoadResult {
  /** Requests answered with the expected status. */
  ok: number;
  /** Every other outcome: a status, or the error of a request that got no answer. */
  failures: string[];
  /** Milliseconds per request (answered ones), in the order they finished. */
  latencies: number[];
  /** When each request finished (performance.now()), parallel to latencies. */
  finishedAt: number[];
}

export interface LoadTarget {
  host: string;
  path: string;
  /** Sent with every request to this target (an Authorization header, say). */
  headers?: Record<string, string>;
}

/**
 * Steady idempotent traffic: `connections` clients, each sending GET requests one after another
 * over keep-alive connections to the proxy, until stop(). What a user's browser does, and what a
 * rolling restart must not disturb.
 */
export function steadyLoad(opts: {
  port: number;
  /** What each client asks, in turn (one target: always the same). */
  targets: ReadonlyArray<LoadTarget>;
  connections: number;
  expectStatus?: number;
}): { stop(): Promise<LoadResult>; result: LoadResult } {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const result: LoadResult = { ok: 0, failures: [], latencies: [], finishedAt: [] };
  let running = true;
  const one = (target: LoadTarget) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const fail = (what: string) => {
        result.failures.push(`${target.host}${target.path}: ${what} (at ${Date.now()})`);
        resolve();
      };
      const req = request(
        {
          host: '127.0.0.1',
          port: opts.port,
          path: target.path,
          headers: { ...target.headers, host: target.host },
          agent,
        },
        (res) => {
          // The start of an unexpected answer's body says who refused and why.
          let head = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (head.length < 200) head += chunk.slice(0, 200 - head.length);
          });
          res.once('end', () => {
            const now = performance.now();
            if (res.statusCode === (opts.expectStatus ?? 200)) {
              result.ok++;
              result.latencies.push(now - started);
              result.finishedAt.push(now);
              resolve();
            } else fail(`status ${res.statusCode} ${head}`);
          });
          res.once('error', (err) => fail(`response ${err.message}`));
        },
      );
      req.once('error', (err) => fail(`request ${err.message}`));
      req.end();
    });
  const clients = Array.from({ length: opts.connections }, async (_, client) => {
    for (let i = client; running; i++) await one(opts.targets[i % opts.targets.length]!);
  });
  return {
    result,
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
      return result;
    },
  };
}
