import type { AddressInfo } from 'node:net';
import { type ServiceName, serviceNames } from '@aplt/config';
import { freePort, localUpstreams, type RunningProxy, startCaddy } from '@aplt/proxy';
import { httpRequest, type HttpResponse } from './http-request';

/** Anything that listens like a Fastify instance. */
interface Listenable {
  listen(opts: { port: number; host: string }): Promise<string>;
  server: { address(): AddressInfo | string | null };
  close(): Promise<unknown>;
}

export interface TestProxy {
  port: number;
  /** Ports the services listen on (direct access, bypassing the proxy). */
  ports: Partial<Record<ServiceName, number>>;
  /** A request through the proxy with the given Host, e.g. request('acme.localhost', '/healthz'). */
  request(
    host: string,
    path: string,
    opts?: Omit<Parameters<typeof httpRequest>[1] & object, 'host'>,
  ): Promise<HttpResponse>;
  stop(): Promise<void>;
}

/**
 * Runs the real proxy (Debian's caddy with the generated Caddyfile and forward auth) in front of
 * service apps built by the test. Services not given answer 502, as a stopped service would.
 * Pass the access app too: forward auth calls its /api/validate like in production.
 */
export async function startTestProxy(apps: Partial<Record<ServiceName, Listenable>>): Promise<TestProxy> {
  const ports: Partial<Record<ServiceName, number>> = {};
  for (const [name, app] of Object.entries(apps) as Array<[ServiceName, Listenable]>) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    ports[name] = (app.server.address() as AddressInfo).port;
  }
  const dead = await freePort();
  const upstreamPorts = Object.fromEntries(serviceNames.map((s) => [s, ports[s] ?? dead])) as Record<
    ServiceName,
    number
  >;
  const port = await freePort();
  let proxy: RunningProxy | undefined;
  try {
    proxy = await startCaddy({
      port,
      domain: 'localhost',
      upstreams: localUpstreams(upstreamPorts),
      bind: '127.0.0.1',
    });
  } catch (err) {
    await Promise.allSettled(Object.values(apps).map((a) => a.close()));
    throw err;
  }
  const running = proxy;
  return {
    port,
    ports,
    request: (host, path, opts = {}) => httpRequest(`http://127.0.0.1:${port}${path}`, { ...opts, host }),
    async stop() {
      await running.stop();
      await Promise.allSettled(Object.values(apps).map((a) => a.close()));
    },
  };
}
