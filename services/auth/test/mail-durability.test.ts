import { allFeaturesClient } from '@aplt/licensing';
import {
  createTestFleet,
  createTestRedis,
  freePort,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  viaProxy,
} from '@aplt/testing';
import { QueueClient } from '@aplt/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import { queuedMessageId } from '../src/shared/mail-queue';
import { adminUrlOf, linkIn, registerPublicUrls, seedDemoAdmins, testConfig } from './helpers';

describe('transactional e-mail survives an SMTP outage and a restart of the auth service', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink | undefined;
  let queues: QueueClient;
  let mailQueue: ReturnType<QueueClient['queue']>;

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await registerPublicUrls(fleet);
    redis = await createTestRedis();
    queues = new QueueClient(redis.redis, redis.prefix);
    mailQueue = queues.queue('mail');
  });
  afterAll(async () => {
    await queues?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('keeps a reset e-mail queued while SMTP is down, and the next process delivers it', async () => {
    const port = await freePort();
    const config = testConfig(redis, { port });
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };

    const first = await buildApp(deps, config);
    await first.ready();
    const res = await first.inject({
      method: 'POST',
      url: '/auth/user/emailpass/reset-password',
      headers: viaProxy('acme.localhost'),
      payload: { identifier: demoAdmin.email },
    });
    expect(res.statusCode).toBe(201);
    // Nothing listens on the SMTP port: the first attempt fails and a retry is scheduled.
    const deadline = Date.now() + 15_000;
    let counts = await mailQueue.getJobCounts('delayed', 'wait', 'active', 'completed', 'failed');
    while (counts.delayed === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      counts = await mailQueue.getJobCounts('delayed', 'wait', 'active', 'completed', 'failed');
    }
    expect(counts).toMatchObject({ delayed: 1, failed: 0, completed: 0 });
    const [job] = await mailQueue.getDelayed();
    await first.close();

    // The mail server is back, and so is the service (a new process would do the same).
    sink = await startSmtpSink({ port });
    const second = await buildApp(deps, config);
    await second.ready();
    try {
      const mail = await sink.waitFor((m) => m.envelope.to.includes(demoAdmin.email), 30_000);
      expect(linkIn(mail, /http:\/\/acme\.localhost\S*\/app\/reset-password\?token=\S+/)).toContain(
        adminUrlOf('acme'),
      );
      expect(mail.secure).toBe(true);
      // Its Message-ID comes from the job, so every attempt of the job (a retry after a crash
      // between the hand-over and the job's completion too) sends the same one.
      expect(mail.parsed.messageId).toBe(
        queuedMessageId(config.REDIS_PREFIX, String(job!.id), config.MAIL_FROM_ADDRESS.split('@').pop()!),
      );
      expect(mail.parsed.messageId).toMatch(/^<mail-.+@.+>$/);
      // Delivered messages do not linger in Redis with their live reset link (the job completes
      // just after the SMTP server took the message).
      const empty = { delayed: 0, wait: 0, active: 0, completed: 0, failed: 0 };
      let after = {};
      for (let i = 0; i < 100; i++) {
        after = await mailQueue.getJobCounts('delayed', 'wait', 'active', 'completed', 'failed');
        if (JSON.stringify(after) === JSON.stringify(empty)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(after).toEqual(empty);
      expect(sink.messages).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
