import { createServer, type Server } from 'node:net';

function listenOnFreePort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
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
