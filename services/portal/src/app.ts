import { type Kysely, sql } from '@aplt/db';
import { createApp } from '@aplt/http';
import type { Config } from './config';

export interface Deps {
  db: Kysely<any>;
}

/** Builds the customer portal service (MariaDB); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'portal',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
  });
  app.addReadinessCheck('portal-db', async () => {
    await sql`select 1`.execute(deps.db);
  });
  return app;
}
