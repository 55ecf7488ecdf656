import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from '../src/free-port';

describe('freePorts', () => {
  it('gives distinct ports, none excluded, each one free to listen on', async () => {
    const [first] = await freePorts(1);
    const ports = await freePorts(40, [first!]);
    expect(ports).toHaveLength(40);
    expect(new Set(ports).size).toBe(40);
    expect(ports).not.toContain(first);
    const servers = await Promise.all(
      ports.map(
        (port) =>
          new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
            const server = createServer();
            server.once('error', reject);
            server.listen(port, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });
});
