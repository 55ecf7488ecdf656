import { connect, createServer, type Server } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 that reaches the proxy from another loopback address, so Chromium
 * (which cannot pick its source address) is a visitor the proxy and the gatekeeper see as `from`.
 */
export async function relayFrom(from: string, proxyPort: number): Promise<{ port: number; server: Server }> {
  const server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: proxyPort, localAddress: from });
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}
