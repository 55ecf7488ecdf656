import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { generateSecrets, loadEnv, pgEnv, redisEnv } from '@aplt/config';
import { createLogger } from '@aplt/http';
import { type FastifyBaseLogger, LogController } from 'fastify';
import {
  type AccessDatabase,
  type ControlDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  migrateToLatest,
  TenantRegistry,
} from '@aplt/db';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app';
import { insertDeviceToken, insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { createUser } from '../src/auth/login.service';
import { loadConfig } from '../src/config';
import { seedTenantLicenses } from '../src/licensing/license.service';

/**
 * A running access service on throw-away databases (access + control) for the benchmarks, with a
 * license-admin session, a device token, licensed tenants and secrets of its own (the service
 * token for license reads is `serviceToken`). cleanup() drops everything.
 */
export async function accessFixture(
  opts: { env?: Record<string, string>; tenants?: string[]; redis?: boolean } = {},
) {
  const e = loadEnv({ ...pgEnv, ...redisEnv }, process.env);
  const server = { host: e.PG_HOST, port: e.PG_PORT, user: e.PG_USER, password: e.PG_PASS };
  const suffix = randomBytes(3).toString('hex');
  const names = { access: `bench_access_${suffix}`, control: `bench_control_${suffix}` };
  await ensurePgDatabase(server, names.access);
  await ensurePgDatabase(server, names.control);
  const db = createPgDb<AccessDatabase>({ ...server, database: names.access }, { max: 10 });
  const control = createPgDb<ControlDatabase>({ ...server, database: names.control }, { max: 2 });
  await migrateToLatest(db, 'access');
  await migrateToLatest(control, 'control');
  const registry = new TenantRegistry(control, 60_000);
  const tenants = opts.tenants ?? ['acme'];
  for (const id of tenants)
    await registry.add({
      id,
      kind: 'tenant',
      name: id,
      hosts: [`${id}.localhost`],
      commerceDb: { database: 'x' },
      apltDb: { database: 'x' },
    });
  await seedTenantLicenses(db, tenants, ['crm']);
  const prefix = `bench_${suffix}`;
  const redis = opts.redis ? new Redis(e.REDIS_URL) : null;
  const config = loadConfig({ ...generateSecrets(), LOG_LEVEL: 'silent', REDIS_PREFIX: prefix, ...opts.env });
  const app = await buildApp({ db, registry, redis }, config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;

  const user = await createUser(
    { db },
    { email: 'bench@example.com', password: 'Bench-Password-2026!', roles: ['license-admin'] },
  );
  const session = newToken();
  const device = newToken();
  await insertSession(db, {
    id: tokenHash(session),
    userId: user.id,
    ip: '127.0.0.1',
    userAgent: 'bench',
    hours: 1,
  });
  await insertDeviceToken(db, { id: tokenHash(device), userId: user.id, label: 'bench', days: 1 });
  return {
    app,
    db,
    registry,
    config,
    serviceToken: config.SERVICE_TOKEN,
    port,
    url: `http://127.0.0.1:${port}`,
    session,
    device,
    redisUrl: e.REDIS_URL,
    prefix,
    async cleanup() {
      await app.close();
      redis?.disconnect();
      await db.destroy();
      await control.destroy();
      await dropPgDatabase(server, names.access);
      await dropPgDatabase(server, names.control);
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * The baseline: a bare Fastify route answering 204, nothing else. `logged`: with the fleet's
 * logger as production runs it (createLogger: JSON to stdout, asynchronous, at LOG_LEVEL or
 * info) and, like createApp, one line per request at info when the response is done.
 */
export async function bareServer(opts: { logged?: boolean } = {}) {
  const Fastify = (await import('fastify')).default;
  const bare = opts.logged
    ? Fastify({
        loggerInstance: createLogger({
          name: 'bare',
          level: process.env.LOG_LEVEL ?? 'info',
        }) as FastifyBaseLogger,
        logController: new LogController({ disableRequestLogging: true }),
      })
    : Fastify({ logger: false });
  if (opts.logged)
    bare.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          responseTime: reply.elapsedTime,
        },
        'request completed',
      );
      done();
    });
  bare.get('/bare', async (_req, reply) => reply.status(204).send());
  // The deny path's own yardstick: the same JSON 401 from a bare route (a body costs Node more
  // to write than a 204).
  bare.get('/bare-401', async (_req, reply) =>
    reply.status(401).header('cache-control', 'no-store').send({
      type: 'unauthorized',
      message: 'Access denied',
      ip: '192.0.2.50',
      login_url: 'http://access.localhost/login?rd=http%3A%2F%2Facme.localhost%2Fapp',
    }),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bare`,
    close: () => bare.close(),
  };
}

export { HttpLicenseClient } from '@aplt/licensing';
