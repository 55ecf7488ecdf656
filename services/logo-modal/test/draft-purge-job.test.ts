import { createRedis } from '@aplt/queue';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRAFT_PURGE_PATTERN,
  DRAFT_PURGE_SCHEDULER_ID,
  scheduleDraftPurge,
  startDraftPurgeWorker,
} from '../src/transactions/draft-purge.worker';
import { type ModalHarness, startHarness } from './helpers';

describe('abandoned drafts are purged by one BullMQ job scheduler, not a timer per process', () => {
  let h: ModalHarness;
  beforeAll(async () => {
    h = await startHarness({ DRAFT_TTL_HOURS: '24' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps one hourly scheduler however many replicas upsert it', async () => {
    // Three replicas starting (twice each) leave the one scheduler.
    await Promise.all([
      scheduleDraftPurge(h.queue),
      scheduleDraftPurge(h.queue),
      scheduleDraftPurge(h.queue),
    ]);
    await scheduleDraftPurge(h.queue);
    const schedulers = await h.queue.queue('logo-modal').getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({
      key: DRAFT_PURGE_SCHEDULER_ID,
      name: 'drafts.purge',
      pattern: DRAFT_PURGE_PATTERN,
    });
    expect(DRAFT_PURGE_PATTERN).toBe('0 * * * *');
  });

  it('the job cancels stale drafts through the worker and reports how many', async () => {
    const draft = await h.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: { productSku: '900-01' },
    });
    const id = draft.json().transaction_id as string;
    await h.fleet.tenantDbs
      .get('master')!
      .aplt.db.updateTable('aplt_logo_transactions')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('id', '=', id)
      .execute();
    const connection = createRedis(h.redis.url, { forWorker: true });
    const logged: object[] = [];
    const worker = startDraftPurgeWorker(() => h.app.purgeStaleDrafts(), {
      connection,
      prefix: h.redis.prefix,
      log: { info: (obj) => logged.push(obj) },
    });
    const events = new QueueEvents('logo-modal', {
      connection: createRedis(h.redis.url, { forWorker: true }),
      prefix: h.redis.prefix,
    });
    try {
      await events.waitUntilReady();
      const jobId = await h.queue.enqueue('logo-modal', 'drafts.purge', {});
      const job = await h.queue.queue('logo-modal').getJob(jobId);
      expect(await job!.waitUntilFinished(events, 30_000)).toEqual({ purged: 1 });
      expect(logged).toEqual([{ purged: 1 }]);
      expect((await h.app.inject({ url: `/api/transactions/${id}` })).json().status).toBe('cancelled');
      // Nothing left: the next run purges nothing and says so.
      const again = await h.queue
        .queue('logo-modal')
        .getJob(await h.queue.enqueue('logo-modal', 'drafts.purge', {}));
      expect(await again!.waitUntilFinished(events, 30_000)).toEqual({ purged: 0 });
    } finally {
      await worker.close();
      await events.close();
      connection.disconnect();
    }
  });
});
