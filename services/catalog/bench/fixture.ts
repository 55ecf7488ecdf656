// Helpers for bench/catalog-*.ts (dependencies resolve from this package, not from bench/).
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

export { allFeaturesClient } from '@aplt/licensing';

/** A bare Fastify route that sends a fixed JSON body: the baseline for the store route. */
export async function bareJsonServer(body: string) {
  const bare = Fastify({ logger: false });
  bare.get('/bare', async (_req, reply) => reply.type('application/json').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`,
    close: () => bare.close(),
  };
}
