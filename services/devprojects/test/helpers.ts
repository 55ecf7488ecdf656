import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient, type LicenseClient } from '@aplt/licensing';
import { createRedis, QueueClient, type WorkerHandle } from '@aplt/queue';
import { createTestFleet, createTestRedis, type TestFleet, type TestRedis, testSecrets } from '@aplt/testing';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { GitRepositories } from '../src/git/bot-repository';
import type { BuildSettings } from '../src/rebuild/builder';
import { PreviewStore } from '../src/rebuild/previews';
import { buildSettingsFromConfig, startRebuildWorker } from '../src/rebuild/rebuild.worker';

const exec = promisify(execFile);

/** Runs git against the test repository from outside the service, as an independent witness. */
export async function gitCli(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', ['--git-dir', dir, ...args]);
  return stdout;
}

export interface DevprojectsHarness {
  fleet: TestFleet;
  redis: TestRedis;
  /** The bare repository of a tenant. */
  gitDir(tenantId: string): string;
  git: GitRepositories;
  queue: QueueClient;
  env: Record<string, string | undefined>;
  /** The app; `licenses` replaces the all-features client (to test licensing). */
  build(licenses?: LicenseClient): ReturnType<typeof buildApp>;
  /** The rebuild worker; `build` overrides settings (a short time limit, ...). */
  startWorker(build?: Partial<BuildSettings>): WorkerHandle;
  previews: PreviewStore;
  previewDir: string;
  adminToken(tenantId: string, actorId?: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createHarness(tenants: string[]): Promise<DevprojectsHarness> {
  const fleet = await createTestFleet(tenants.map((id) => ({ id })));
  const redis = await createTestRedis();
  const tmp = await mkdtemp(join(tmpdir(), 'devprojects-test-'));
  // The build user (nobody) must be able to pass through to its build directory (DEVPROJECTS_BUILD_DIR).
  await chmod(tmp, 0o711);
  const gitRoot = join(tmp, 'repos');
  const env = {
    ...process.env,
    ...fleet.env,
    ...testSecrets(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    DEVPROJECTS_GIT_DIR: gitRoot,
    DEVPROJECTS_PREVIEW_DIR: join(tmp, 'previews'),
    DEVPROJECTS_BUILD_DIR: join(tmp, 'builds'),
    PUBLIC_PROXY_URL: 'http://127.0.0.1:8080',
  };
  const config = loadConfig(env);
  const git = new GitRepositories(gitRoot, {
    name: config.DEVPROJECTS_BOT_NAME,
    email: config.DEVPROJECTS_BOT_EMAIL,
  });
  const previews = new PreviewStore(join(tmp, 'previews'));
  const producer = createRedis(redis.url);
  const queue = new QueueClient(producer, redis.prefix);
  const workers: WorkerHandle[] = [];
  const workerConnections: Array<ReturnType<typeof createRedis>> = [];
  const deps = {
    registry: fleet.registry,
    databases: fleet.databases,
    licenses: allFeaturesClient,
    git,
    queue,
    previews,
  };
  return {
    previews,
    previewDir: join(tmp, 'previews'),
    fleet,
    redis,
    gitDir: (tenantId) => join(gitRoot, `${tenantId}.git`),
    git,
    queue,
    env,
    build: (licenses) => buildApp(licenses ? { ...deps, licenses } : deps, config),
    startWorker(build = {}) {
      const connection = createRedis(redis.url, { forWorker: true });
      workerConnections.push(connection);
      const worker = startRebuildWorker(
        { ...deps, build: { ...buildSettingsFromConfig(config), ...build } },
        { connection, prefix: redis.prefix },
      );
      workers.push(worker);
      return worker;
    },
    adminToken: (tenantId, actorId = 'user_test_admin') =>
      signActorToken(
        tenantJwtSecret(config.JWT_SECRET, tenantId),
        { actor_id: actorId, actor_type: 'user', auth_identity_id: 'authid_test', app_metadata: {} },
        3600,
      ),
    async cleanup() {
      await Promise.allSettled(workers.map((w) => w.close()));
      await queue.close();
      for (const c of workerConnections) c.disconnect();
      producer.disconnect();
      await redis.cleanup();
      await fleet.cleanup();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
