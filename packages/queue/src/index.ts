export { queueCatalog, type QueueName, type JobName, type JobPayload } from './catalog';
export { createRedis, type Redis } from './redis';
export { QueueClient } from './queue-client';
export { startWorker, TimeLimitExceededError, type JobHandlers, type WorkerHandle } from './worker';
export {
  ensureDurableRedis,
  readRedisDurability,
  requireDurableRedis,
  RedisNotDurableError,
  type RedisDurability,
} from './durability';
export { loadQueueSettings, queueEnv, queueSettings, type QueueSettings } from './settings';
