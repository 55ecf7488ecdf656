import type { Kysely, TenantDatabases, TenantRegistry } from '@aplt/db';
import { conflict, forbidden, unprocessable } from '@aplt/http';
import type { JobPayload, QueueClient } from '@aplt/queue';
import type { GitRepositories } from '../git/bot-repository';
import type { ProjectContext } from '../projects/project.service';
import { getProject } from '../projects/project.service';
import * as repo from '../projects/project.repository';
import { bumpVersion, nextStatus } from '../projects/version';
import * as deployments from './deployment.repository';

/**
 * Records a deployment log (started), moves the project to testing and enqueues the rebuild.
 * The target tenant must be registered; a draft project has nothing to build yet.
 */
export async function requestRebuild(
  ctx: ProjectContext & { registry: TenantRegistry; queue: QueueClient },
  input: { project_id: number; tenant: string; started_by: string | null },
) {
  if (!(await ctx.registry.get(input.tenant)))
    throw unprocessable(`Unknown tenant ${input.tenant}`, { tenant: input.tenant });
  // A tenant rebuilds itself; only the master backend (which maintains the template every tenant
  // is built from) may roll a project out to another tenant.
  if (input.tenant !== ctx.tenant.id && ctx.tenant.kind !== 'master')
    throw forbidden('Only the master backend may rebuild another tenant', { tenant: input.tenant });
  const project = await getProject(ctx, { id: input.project_id });
  const head = await ctx.git.resolve(project.branch_name);
  if (!head) throw conflict(`Branch ${project.branch_name} is missing`);
  const log = await ctx.db.transaction().execute(async (trx) => {
    const locked = (await repo.lockProject(trx, project.id)) as repo.ProjectRow;
    const status = nextStatus(locked.status, 'rebuild_requested');
    if (!status)
      throw conflict(`A ${locked.status} project cannot be rebuilt; commit first`, { status: locked.status });
    const row = await deployments.insertDeployment(trx, {
      dev_project_id: project.id,
      environment: input.tenant,
      version: locked.version,
      commit_sha: head,
      started_by: input.started_by,
    });
    await repo.updateProject(trx, project.id, { status });
    await repo.addChangelog(trx, {
      project_id: project.id,
      action: 'rebuild_requested',
      description: `Rebuild of ${input.tenant} at ${head.slice(0, 12)}`,
      changed_by: input.started_by,
      metadata: { deployment_log_id: row.id, from_status: locked.status, to_status: status },
    });
    return row;
  });
  const jobId = await ctx.queue.enqueue('rebuild', 'rebuild.tenant', {
    tenantId: ctx.tenant.id,
    projectId: project.id,
    deploymentLogId: log.id,
    targetTenant: input.tenant,
  });
  return { deployment: log, job_id: jobId, status: 'testing' as const };
}

/**
 * The worker's side. The "build" reads the exact commit the request pinned and lists its tree:
 * there is no build system behind the platform yet, so this proves the code is there and records
 * what would be deployed. Success moves the project to deployed (patch + 1), failure back to
 * in_progress; either way the deployment log is closed with its log text.
 */
export async function runRebuild(
  deps: { registry: TenantRegistry; databases: TenantDatabases; git: GitRepositories },
  payload: JobPayload<'rebuild', 'rebuild.tenant'>,
): Promise<{ status: 'succeeded' | 'failed' }> {
  const tenant = await deps.registry.get(payload.tenantId);
  if (!tenant) throw new Error(`Tenant ${payload.tenantId} is gone`);
  const db: Kysely<any> = deps.databases.aplt(tenant);
  const log = await deployments.findDeployment(db, payload.deploymentLogId);
  if (!log || log.status !== 'started') return { status: 'failed' };
  const lines: string[] = [`rebuild of ${payload.targetTenant} for project ${payload.projectId}`];
  let ok = false;
  try {
    const listing = await deps.git.for(tenant.id).browseAll(log.commit_sha ?? '');
    lines.push(
      `commit ${log.commit_sha}`,
      `${listing.length} file(s) in tree`,
      ...listing.map((p) => `  ${p}`),
    );
    ok = true;
  } catch (err) {
    lines.push(`error: ${(err as Error).message}`);
  }
  await db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, payload.projectId);
    const status = project ? nextStatus(project.status, ok ? 'rebuild_succeeded' : 'rebuild_failed') : null;
    const version = project && ok ? bumpVersion(project.version, 'patch') : project?.version;
    await deployments.finishDeployment(trx, log.id, {
      status: ok ? 'succeeded' : 'failed',
      message: ok
        ? `Deployed ${version} to ${payload.targetTenant}`
        : `Rebuild of ${payload.targetTenant} failed`,
      log: lines.join('\n'),
      ...(version ? { version } : {}),
    });
    if (!project) return;
    if (status)
      await repo.updateProject(trx, project.id, {
        status,
        ...(ok ? { version: version as string, deployed_at: new Date() } : {}),
      });
    await repo.addChangelog(trx, {
      project_id: project.id,
      action: ok ? 'deployed' : 'rebuild_failed',
      description: ok
        ? `Deployed ${version} to ${payload.targetTenant}`
        : `Rebuild of ${payload.targetTenant} failed`,
      changed_by: 'rebuild-worker',
      metadata: {
        deployment_log_id: log.id,
        from_status: project.status,
        to_status: status ?? project.status,
      },
    });
  });
  return { status: ok ? 'succeeded' : 'failed' };
}
