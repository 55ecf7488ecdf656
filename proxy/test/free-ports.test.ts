import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePorts } from '../src/free-port';
import { startCaddy } from '../src/run-caddy';
import { localUpstreams } from '../src/upstreams';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server) => new Promise((r) => server.close(r));

describe('freePorts', () => {
  it('gives distinct ports, none excluded, each one free to listen on', async () => {
    const [first] = await freePorts(1);
    const ports = await freePorts(40, [first!]);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    expect(ports).not.toContain(first);
    const servers = await Promise.all(ports.map(listen));
    await Promise.all(servers.map(close));
  });

  it('draws below the ephemeral range, so no listen(0) or outgoing connection can take the port meanwhile', async () => {
    const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(Number(ephemeralLow));
  });
});

describe('startCaddy', () => {
  it('serves until stopped, then leaves no working directory behind', async () => {
    const port = await freePort();
    const proxy = await startCaddy({
      port,
      domain: 'localhost',
      upstreams: localUpstreams(),
      bind: '127.0.0.1',
    });
    const dir = dirname(proxy.caddyfile);
    expect(existsSync(proxy.caddyfile)).toBe(true);
    await proxy.stop();
    expect(proxy.process.exitCode ?? proxy.process.signalCode).not.toBeNull();
    expect(existsSync(dir)).toBe(false);
  });

  it("fails when another process holds its port, rather than taking that process's answers for its own", async () => {
    const port = await freePort();
    const squatter = await listen(port);
    try {
      const upstreams = localUpstreams();
      await expect(startCaddy({ port, domain: 'localhost', upstreams, bind: '127.0.0.1' })).rejects.toThrow(
        /address already in use/,
      );
    } finally {
      await close(squatter);
    }
  });
});
