import { commerceActorCheck, createTenantApp, type TenantServiceDeps, useActorCheck } from '@aplt/http';
import { createRedis, QueueClient } from '@aplt/queue';
import type { Config } from './config';
import { RunStateStore } from './run-state.repository';
import { runsRoutes } from './runs.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'>;

/** Builds the password-sync service (run-state endpoint and health); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('password-sync', deps, config);
  // This service starts without bootTenantService: it wires the actor check of requireActor itself.
  useActorCheck(app, commerceActorCheck(deps.databases));
  const redis = createRedis(config.REDIS_URL);
  const queues = new QueueClient(redis, config.REDIS_PREFIX);
  const runs = new RunStateStore(redis, config.REDIS_PREFIX, config.PASSWORD_SYNC_RUN_TTL_DAYS * 86_400);
  runsRoutes(app, runs, queues.queue('password-sync'));
  app.addReadinessCheck('redis', async () => {
    await redis.ping();
  });
  app.addHook('onClose', async () => {
    await queues.close();
    redis.disconnect();
  });
  return app;
}
