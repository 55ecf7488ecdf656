import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/**
 * Where free ports are drawn from: below the kernel's ephemeral range. Every `listen(0)` and every
 * outgoing connection takes its port from that range, so a port handed out here and bound a while
 * later (Caddy after a fleet's seed, tens of seconds) cannot meanwhile go to another test's server
 * or to a browser's debugging port, which is what a port chosen by `listen(0)` could.
 */
function candidateRange(): { low: number; high: number } | null {
  let ephemeralLow = 32_768;
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    if (Number(low) > 0) ephemeralLow = Number(low);
  } catch {
    // Not Linux: the common default.
  }
  const low = 20_000;
  return ephemeralLow - low >= 2_000 ? { low, high: ephemeralLow } : null;
}

const range = candidateRange();

function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(null) : reject(err),
    );
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

async function listenOnFreePort(): Promise<{ server: Server; port: number }> {
  if (range) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = range.low + Math.floor(Math.random() * (range.high - range.low));
      const server = await listenOn(port);
      if (server) return { server, port };
    }
  }
  const server = await listenOn(0);
  if (!server) throw new Error('no free port');
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export async function freePort(): Promise<number> {
  const { server, port } = await listenOnFreePort();
  await close(server);
  return port;
}

/**
 * `count` distinct free ports, none of them in `exclude`. Each is held open until all are chosen:
 * one at a time, the kernel may hand the same closed port out twice (two services of a fleet on
 * one port: the second fails to bind, or the proxy sends one service's requests to the other).
 */
export async function freePorts(count: number, exclude: Iterable<number> = []): Promise<number[]> {
  const taken = new Set(exclude);
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const { server, port } = await listenOnFreePort();
      held.push(server);
      if (taken.has(port)) continue;
      taken.add(port);
      ports.push(port);
    }
  } finally {
    await Promise.all(held.map(close));
  }
  return ports;
}
