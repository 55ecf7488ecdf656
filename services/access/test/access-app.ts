import type { AccessDatabase, Kysely, TenantRegistry } from '@aplt/db';
import { createTestPgDatabase, testSecrets } from '@aplt/testing';
import type { Redis } from 'ioredis';
import { buildApp } from '../src/app';
import type { OtpChannel } from '../src/auth/otp-channel';
import { loadConfig } from '../src/config';

/**
 * The access app as other services' end-to-end tests put it in front of themselves, on its own
 * fresh access database. Requests from 127.0.0.1 pass forward auth (loopback is whitelisted by
 * configuration); act as another client with `localAddress: '127.0.0.2'`. Its secrets are this
 * test process's `testSecrets()`, so the assertions it signs verify in every backend of the test.
 * `extra.redis` turns on license push; `extra.otp` replaces the second-factor channel;
 * `extra.logDestination` sends its log lines to a file (with `LOG_LEVEL` in `env`).
 */
export async function createAccessAppForTest(
  registry: TenantRegistry,
  env: Record<string, string | undefined> = {},
  extra: { redis?: Redis; otp?: OtpChannel; logDestination?: string } = {},
) {
  const accessDb = await createTestPgDatabase('access');
  const app = await buildApp(
    { db: accessDb.db, registry, ...extra },
    loadConfig({ ...testSecrets(), LOG_LEVEL: 'silent', ACCESS_CAPTCHA_MAX_NUMBER: '2000', ...env }),
  );
  app.decorate('accessDb', accessDb.db);
  app.addHook('onClose', () => accessDb.drop());
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Only on apps from createAccessAppForTest: the private access database. */
    accessDb?: Kysely<AccessDatabase>;
  }
}
