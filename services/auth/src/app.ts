import { randomBytes } from 'node:crypto';
import { newId } from '@aplt/db';
import { commerceActorCheck, createTenantApp, type TenantServiceDeps, useActorCheck } from '@aplt/http';
import { hashPassword } from '@aplt/passwords';
import { createRedis, QueueClient } from '@aplt/queue';
import { emailpassRoutes, type PasswordSyncTrigger } from './admin/emailpass.routes';
import { sessionRoutes } from './admin/session.routes';
import { tokenRefreshRoutes } from './admin/token-refresh.routes';
import type { Config } from './config';
import { accountRoutes } from './customer/account.routes';
import { scheduleAnonymiseSweep, startAccountWorker } from './customer/anonymise.worker';
import { customerAuthRoutes } from './customer/customer-auth.routes';
import { BackgroundTasks } from './shared/background';
import { queuedMailer, startMailWorker } from './shared/mail-queue';
import type { AuthDeps } from './shared/deps';
import { AccountLockout } from './shared/lockout';
import { createMailer, type Mailer } from './shared/mailer';
import { registerRateLimit } from './shared/rate-limit';
import { TokenSigner } from './shared/tokens';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'> & {
  /** Tests may pass a mailer; by default SMTP per configuration. */
  mailer?: Mailer;
};

/** Builds the auth service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('auth', deps, config);
  // requireActor (customer 2FA routes) refuses tokens of deleted customers and revoked tokens.
  useActorCheck(app, commerceActorCheck(deps.databases));

  const redis = createRedis(config.REDIS_URL);
  const queue = new QueueClient(redis, config.REDIS_PREFIX);
  // Mail leaves through the queue; the worker in this process (MAIL_WORKER) hands it to SMTP.
  const smtp = deps.mailer ?? createMailer(config);
  const mailer = queuedMailer(queue);
  const workerRedis = config.MAIL_WORKER ? createRedis(config.REDIS_URL, { forWorker: true }) : null;
  const mailWorker = workerRedis
    ? startMailWorker(smtp, {
        connection: workerRedis,
        prefix: config.REDIS_PREFIX,
        senderDomain: config.MAIL_FROM_ADDRESS.split('@').pop()!,
      })
    : null;
  // Anonymises deleted storefront accounts after their grace period (delayed jobs, daily sweep).
  const accountRedis = config.ACCOUNT_WORKER ? createRedis(config.REDIS_URL, { forWorker: true }) : null;
  const accountWorker = accountRedis
    ? startAccountWorker(
        {
          registry: deps.registry,
          databases: deps.databases,
          afterDays: config.ACCOUNT_ANONYMISE_AFTER_DAYS,
          log: app.log,
        },
        { connection: accountRedis, prefix: config.REDIS_PREFIX },
      )
    : null;
  const background = new BackgroundTasks(app.log);
  let dummy: Promise<string> | undefined;
  const authDeps: AuthDeps = {
    config,
    databases: deps.databases,
    tokens: new TokenSigner(config.JWT_SECRET),
    mailer,
    background,
    // Made once, lazily: a real scrypt hash so an unknown e-mail costs one full verify too.
    dummyHash: () => (dummy ??= hashPassword(randomBytes(24).toString('hex'))),
    lockout: new AccountLockout(redis, config.REDIS_PREFIX, {
      maxFailures: config.AUTH_LOCKOUT_MAX_FAILURES,
      windowSeconds: config.AUTH_LOCKOUT_WINDOW_SECONDS,
    }),
    log: app.log,
  };
  const sync: PasswordSyncTrigger = {
    newRunId: () => newId('psync'),
    async enqueue(job) {
      // The run id is the job id, so the run-state endpoint can report a queued run.
      await queue.enqueue('password-sync', 'password-sync.run', job, { jobId: job.runId });
      app.log.info({ runId: job.runId, sourceTenantId: job.sourceTenantId }, 'password sync queued');
    },
  };

  await registerRateLimit(app, redis, config.REDIS_PREFIX);
  emailpassRoutes(app, authDeps, sync);
  tokenRefreshRoutes(app, authDeps);
  sessionRoutes(app, authDeps);
  customerAuthRoutes(app, authDeps);
  await app.register(accountRoutes, { deps: authDeps, queue });

  app.addReadinessCheck('redis', async () => {
    await redis.ping();
  });
  app.addHook('onReady', async () => {
    void authDeps.dummyHash();
    if (accountWorker) await scheduleAnonymiseSweep(queue);
  });
  app.addHook('onClose', async () => {
    await background.drain();
    await mailWorker?.close();
    await accountWorker?.close();
    await queue.close();
    smtp.close();
    workerRedis?.disconnect();
    accountRedis?.disconnect();
    redis.disconnect();
  });
  return app;
}
