import { type Kysely, type TenantRegistry } from '@aplt/db';
import { createApp, pingPg } from '@aplt/http';
import type { Config } from './config';

export interface Deps {
  db: Kysely<any>;
  registry: TenantRegistry;
}

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Builds the access service; never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'access',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
  });
  app.addReadinessCheck('access-db', () => pingPg(deps.db));

  // Forward-auth endpoint. Until users and sessions exist, only the machine itself is allowed.
  app.get('/api/validate', { config: { tenant: false } }, async (request, reply) => {
    if (loopback.has(request.ip)) return reply.status(204).header('x-auth-via', 'loopback').send();
    return reply.status(401).send({ type: 'unauthorized', message: 'Access denied', ip: request.ip });
  });
  return app;
}
