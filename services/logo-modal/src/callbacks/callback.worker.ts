import { startWorker, type WorkerHandle } from '@aplt/queue';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { type CatalogDeps, masterDb } from '../catalog/catalog.service';
import { type Config, callbackSecret } from '../config';
import { findTransaction, updateTransaction } from '../transactions/transaction.repository';
import { callbackBody, deliverCallback } from './callback.service';
import { CallbackTargetRefused, CallbackTargets } from './ssrf';

/**
 * Delivers 'Add to Order' callbacks from the `callbacks` queue: retries with exponential backoff
 * (policy in the queue catalog), records attempts and the outcome on the transaction. A refused
 * target (SSRF guard) fails at once: retrying would not make it acceptable.
 */
export function startCallbackWorker(
  deps: CatalogDeps & { connection: Redis; prefix: string },
  config: Config,
  log: { warn(obj: object, msg: string): void } = console as never,
): WorkerHandle {
  // The delivery side of the SSRF guard: its agents check every address at connect time.
  const targets = new CallbackTargets(config.CALLBACK_ALLOWED_NETWORKS);
  const handle = startWorker(
    'callbacks',
    {
      'callback.deliver': async (payload, job) => {
        const db = await masterDb(deps);
        const tx = await findTransaction(db, payload.transactionId);
        if (!tx || tx.status === 'cancelled') return { skipped: true };
        const attempts = job.attemptsMade + 1;
        const isLast = attempts >= (job.opts.attempts ?? 1);
        try {
          const status = await deliverCallback({
            url: payload.url,
            body: callbackBody(tx, payload.baseUrl),
            secret: callbackSecret(config, payload.integration),
            targets,
            timeoutMs: config.CALLBACK_TIMEOUT_MS,
            transactionId: tx.id,
          });
          await updateTransaction(db, tx.id, {
            callback_status: 'delivered',
            callback_attempts: attempts,
            callback_delivered_at: new Date(),
          });
          return { status };
        } catch (err) {
          const refused = err instanceof CallbackTargetRefused;
          await updateTransaction(db, tx.id, {
            callback_status: refused || isLast ? 'failed' : 'pending',
            callback_attempts: attempts,
          });
          log.warn({ err, transactionId: tx.id, attempts }, 'callback delivery failed');
          if (refused) throw new UnrecoverableError((err as Error).message);
          throw err;
        }
      },
    },
    { connection: deps.connection, prefix: deps.prefix, concurrency: 8 },
  );
  return {
    worker: handle.worker,
    async close() {
      await handle.close();
      targets.close();
    },
  };
}
