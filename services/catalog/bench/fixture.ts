// Helpers for bench/catalog-*.ts (dependencies resolve from this package, not from bench/).
import type { AddressInfo } from 'node:net';
import { generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import Fastify from 'fastify';
import { Redis } from 'ioredis';

export { allFeaturesClient } from '@aplt/licensing';

/** Fresh secrets per run, as the start command makes them (a published value would be refused). */
export const secrets = generateSecrets();
const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY);

/**
 * The headers the proxy adds after forward auth (a whitelisted machine); the catalog refuses tenant
 * routes without them. The signer renews the assertion once it is half-way through its 60 s, so
 * calling this again gives a token that is still good.
 */
export function proxyHeaders(host: string): Record<string, string> {
  const token = signer.assertion(host, () => ({
    sub: 'whitelist',
    host,
    tenant: null,
    reason: 'whitelist',
    roles: [],
  }));
  return { host, [ASSERTION_HEADER]: token };
}

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

/** Removes what the apps left under a Redis prefix (BullMQ queue metadata). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
