import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { createRedis, QueueClient } from '@aplt/queue';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { loadPartnerConfig, type PartnerConfig } from './partner.config';
import { schedulePartnerSweep, startPartnerWorker } from './partner.worker';

/**
 * Runs the partner-sync worker and its sweep scheduler in this process (server.ts), on their own
 * Redis connections, closed after HTTP when the app closes. Off with DOCUMENTS_WORKER=false or
 * PARTNER_WORKER=false.
 */
export async function startPartnerSync(
  app: FastifyInstance,
  deps: { registry: TenantRegistry; databases: TenantDatabases },
  config: Config,
  partnerConfig: PartnerConfig = loadPartnerConfig(),
): Promise<void> {
  if (!config.DOCUMENTS_WORKER || !partnerConfig.PARTNER_WORKER) return;
  const connection = createRedis(config.REDIS_URL, { forWorker: true });
  const producer = createRedis(config.REDIS_URL);
  const queues = new QueueClient(producer, config.REDIS_PREFIX);
  const worker = startPartnerWorker(
    deps,
    { config: partnerConfig, masterSecret: config.JWT_SECRET },
    { connection, prefix: config.REDIS_PREFIX, queues },
  );
  await schedulePartnerSweep(queues, partnerConfig.PARTNER_SWEEP_EVERY_MS);
  app.addHook('onClose', async () => {
    await worker.close();
    await queues.close();
    producer.disconnect();
    connection.disconnect();
  });
}
