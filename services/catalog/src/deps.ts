import type { TenantDatabases, TenantRecord, TenantRegistry } from '@aplt/db';
import type { QueueClient } from '@aplt/queue';
import type { AiProvider } from './ai/ai-provider';
import type { Config } from './config';

/** What the catalog routes and workers share; decorated on the app as `catalogDeps`. */
export interface CatalogDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  queues: QueueClient;
  ai: AiProvider;
  config: Config;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogDeps: CatalogDeps;
  }
}

/** Connectors import into the master tenant's aplt DB; tenant updates copy from it. */
export async function masterTenant(registry: TenantRegistry): Promise<TenantRecord | undefined> {
  return (await registry.list()).find((t) => t.kind === 'master');
}
