import type { TenantRegistry } from '@aplt/db';
import { createTestPgDatabase } from '@aplt/testing';
import { buildApp } from './app';
import { loadConfig } from './config';

/**
 * The access app as other services' end-to-end tests put it in front of themselves, on its own
 * fresh access database. Requests from 127.0.0.1 pass forward auth (loopback is whitelisted by
 * configuration); act as another client with `localAddress: '127.0.0.2'`.
 */
export async function createAccessAppForTest(
  registry: TenantRegistry,
  env: Record<string, string | undefined> = {},
) {
  const accessDb = await createTestPgDatabase('access');
  const app = await buildApp({ db: accessDb.db, registry }, loadConfig({ LOG_LEVEL: 'silent', ...env }));
  app.addHook('onClose', () => accessDb.drop());
  return app;
}
