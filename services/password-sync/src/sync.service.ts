import type { TenantDatabases, TenantRecord, TenantRegistry } from '@aplt/db';
import type { JobPayload, QueueClient } from '@aplt/queue';
import { queueCatalog } from '@aplt/queue';
import type { FastifyBaseLogger } from 'fastify';
import type { RunStateStore, TenantSyncState } from './run-state.repository';
import { readPassword, type SourcePassword, writePassword } from './sync.repository';

export interface SyncDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  runs: RunStateStore;
  queue: QueueClient;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

type RunJob = JobPayload<'password-sync', 'password-sync.run'>;
type TenantJob = JobPayload<'password-sync', 'password-sync.tenant'>;

const now = () => new Date().toISOString();
const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

async function copyInto(
  deps: SyncDeps,
  target: TenantRecord,
  job: { entityId: string; provider: string },
  source: SourcePassword,
): Promise<'updated' | 'newer' | 'not_present'> {
  // Revoked as of this write: a token the target issued before it came from the old password.
  return writePassword(deps.databases.commerce(target), job.entityId, job.provider, source, new Date());
}

/**
 * One sync run: the new hash from the source tenant into every other tenant of the registry (the
 * only list), all at once. A tenant that fails does not stop the others; it gets its own retry
 * job with backoff. Counts cover every database, the source included (it already holds the hash).
 */
export async function runPasswordSync(deps: SyncDeps, job: RunJob) {
  const meta = {
    id: job.runId,
    sourceTenantId: job.sourceTenantId,
    entityId: job.entityId,
    provider: job.provider,
    startedAt: now(),
  };
  await deps.runs.saveMeta(meta);
  // A fresh read, so a tenant registered a moment ago is part of this run.
  const tenants = await deps.registry.reload();
  const source = tenants.find((t) => t.id === job.sourceTenantId);
  const password = source
    ? await readPassword(deps.databases.commerce(source), job.entityId, job.provider)
    : undefined;
  if (!source || !password) {
    const error = source ? 'identity not found in the source tenant' : 'source tenant not registered';
    await deps.runs.saveMeta({ ...meta, error });
    deps.log.error({ runId: job.runId, sourceTenantId: job.sourceTenantId }, `password sync: ${error}`);
    return { databases: tenants.length, updated: 0, failed: 0, notPresent: 0 };
  }
  await deps.runs.setTenant(job.runId, source.id, { status: 'source', attempts: 0, at: now() });

  const others = tenants.filter((t) => t.id !== source.id);
  const results = await Promise.all(
    others.map(async (target) => {
      let state: TenantSyncState;
      try {
        state = { status: await copyInto(deps, target, job, password), attempts: 1, at: now() };
        deps.log.info(
          { runId: job.runId, tenant: target.id, result: state.status },
          `password sync: ${target.id} ${state.status}`,
        );
      } catch (err) {
        state = { status: 'retrying', attempts: 1, error: message(err), at: now() };
        deps.log.warn(
          { runId: job.runId, tenant: target.id, err: state.error },
          `password sync: ${target.id} failed`,
        );
      }
      await deps.runs.setTenant(job.runId, target.id, state);
      return { target, state };
    }),
  );

  const failed = results.filter((r) => r.state.status === 'retrying');
  const summary = {
    databases: tenants.length,
    // A target with an even newer password is in line too (it wins over this change).
    updated: 1 + results.filter((r) => r.state.status === 'updated' || r.state.status === 'newer').length,
    failed: failed.length,
    notPresent: results.filter((r) => r.state.status === 'not_present').length,
  };
  await deps.runs.saveMeta({ ...meta, firstPassAt: now(), firstPass: summary });
  deps.log.info(
    { runId: job.runId, ...summary },
    `password sync summary: ${summary.updated} updated, ${summary.failed} failed, ${summary.notPresent} without this identity, of ${summary.databases} databases`,
  );

  const spec = queueCatalog['password-sync'];
  for (const { target } of failed) {
    await deps.queue
      .enqueue(
        'password-sync',
        'password-sync.tenant',
        { ...job, targetTenantId: target.id },
        { jobId: `${job.runId}-${target.id}`, delay: spec.backoffMs },
      )
      .catch((err: unknown) =>
        deps.log.error({ runId: job.runId, tenant: target.id, err }, 'password sync: retry not queued'),
      );
  }
  return summary;
}

/**
 * A retry for one tenant. It copies the source's current hash (a later change wins), and throws on
 * failure so the queue retries it with backoff until its attempt limit.
 */
export async function retryTenant(deps: SyncDeps, job: TenantJob, attempt: number, maxAttempts: number) {
  const tenants = await deps.registry.reload();
  const target = tenants.find((t) => t.id === job.targetTenantId);
  const source = tenants.find((t) => t.id === job.sourceTenantId);
  if (!target || !source) {
    await deps.runs.setTenant(job.runId, job.targetTenantId, {
      status: 'failed',
      attempts: attempt,
      error: 'tenant no longer registered',
      at: now(),
    });
    return;
  }
  try {
    const password = await readPassword(deps.databases.commerce(source), job.entityId, job.provider);
    if (!password) throw new Error('identity not found in the source tenant');
    const status = await copyInto(deps, target, job, password);
    await deps.runs.setTenant(job.runId, target.id, { status, attempts: attempt, at: now() });
    deps.log.info(
      { runId: job.runId, tenant: target.id, attempt, result: status },
      `password sync retry: ${target.id} ${status}`,
    );
  } catch (err) {
    const last = attempt >= maxAttempts;
    await deps.runs.setTenant(job.runId, target.id, {
      status: last ? 'failed' : 'retrying',
      attempts: attempt,
      error: message(err),
      at: now(),
    });
    deps.log.warn(
      { runId: job.runId, tenant: target.id, attempt, last, err: message(err) },
      `password sync retry: ${target.id} failed`,
    );
    throw err;
  }
}
