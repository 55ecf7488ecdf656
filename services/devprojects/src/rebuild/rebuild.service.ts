import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely, TenantDatabases, TenantRegistry, ApltDatabase } from '@aplt/db';
import { conflict, forbidden, unprocessable } from '@aplt/http';
import type { JobPayload, QueueClient } from '@aplt/queue';
import type { GitRepositories } from '../git/bot-repository';
import type { ProjectContext } from '../projects/project.service';
import { getProject } from '../projects/project.service';
import * as repo from '../projects/project.repository';
import { bumpVersion, nextStatus } from '../projects/version';
import {
  BoundedLog,
  BuildRefused,
  type BuildSettings,
  findOutput,
  handOver,
  planBuild,
  prepareDirs,
  type RunResult,
  runBuild,
} from './builder';
import * as deployments from './deployment.repository';
import { OutputTooLargeError, type PreviewStore } from './previews';

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

export interface RebuildDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  git: GitRepositories;
  previews: PreviewStore;
  build: BuildSettings;
}

/**
 * The worker's side: a real build of the pinned commit.
 *
 * 1. the commit's tree is exported into a fresh temporary directory (git archive);
 * 2. package.json gives the build (`scripts.build` as `npm run build`, the output directory);
 * 3. the command runs without network, with a clean environment, as the build user and with a
 *    time limit; its output is written to the deployment log while it runs (about once a second,
 *    bounded);
 * 4. on exit status 0 the output directory is copied into the project's previews and becomes the
 *    live preview at once (atomic switch); anything else keeps the previous preview.
 *
 * Success moves the project to deployed (patch + 1), failure back to in_progress; either way the
 * deployment log is closed with the exit status, duration and log.
 */
export async function runRebuild(
  deps: RebuildDeps,
  payload: JobPayload<'rebuild', 'rebuild.tenant'>,
): Promise<{ status: 'succeeded' | 'failed' }> {
  const tenant = await deps.registry.get(payload.tenantId);
  if (!tenant) throw new Error(`Tenant ${payload.tenantId} is gone`);
  const db: Kysely<ApltDatabase> = deps.databases.aplt(tenant);
  const log = await deployments.findDeployment(db, payload.deploymentLogId);
  if (!log || log.status !== 'started') return { status: 'failed' };
  const project = await repo.findProject(db, { id: payload.projectId });
  const out = new BoundedLog(deps.build.logMaxBytes);
  out.line(`rebuild of ${payload.targetTenant} for project ${project?.project_code ?? payload.projectId}`);
  out.line(`commit ${log.commit_sha}`);

  // The log reaches the record while the build runs: one write at a time, only when it changed.
  let written = -1;
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      if (out.revision === written) return;
      const revision = out.revision;
      await deployments.updateLog(db, log.id, out.text()).catch(() => {});
      written = revision;
    });
    return flushing;
  };
  const ticker = setInterval(() => void flush(), 1000);

  const outcome: {
    ok: boolean;
    message: string;
    run: RunResult | null;
    outputDir: string | null;
    preview: boolean;
  } = { ok: false, message: '', run: null, outputDir: null, preview: false };
  let work: string | null = null;
  let staged: string | null = null;
  try {
    if (!project) throw new BuildRefused('The project is gone');
    await mkdir(deps.build.buildRoot, { recursive: true });
    work = await mkdtemp(join(deps.build.buildRoot, 'devprojects-build-'));
    const dirs = await prepareDirs(work);
    await deps.git.for(tenant.id).exportTree(log.commit_sha ?? '', dirs.project);
    out.line(`checked out ${project.branch_name} at ${log.commit_sha?.slice(0, 12)} into a fresh work tree`);
    const plan = await planBuild(dirs.project);
    await handOver(work, deps.build);
    out.line(`$ ${plan.command.join(' ')}    (scripts.build: ${plan.script})`);
    await flush();
    const run = await runBuild(plan, dirs, deps.build, out);
    outcome.run = run;
    const how = run.timedOut
      ? `killed after the time limit of ${Math.round(deps.build.timeoutMs / 1000)} s`
      : run.exitCode !== null
        ? `exit status ${run.exitCode}`
        : `killed by ${run.signal}`;
    out.line(`\nbuild finished: ${how} in ${run.durationMs} ms`);
    if (run.timedOut || run.exitCode !== 0) throw new BuildRefused(`The build failed (${how})`);
    const outputDir = await findOutput(dirs.project, plan.outputDirs);
    if (!outputDir)
      throw new BuildRefused(
        `The build left no output directory (${plan.outputDirs.map((d) => `${d}/`).join(' or ')}; set "outputDir" in package.json for another one)`,
      );
    outcome.outputDir = outputDir;
    const copy = await deps.previews.stage(
      tenant.id,
      project.project_code,
      log.id,
      join(dirs.project, outputDir),
      {
        maxBytes: deps.build.maxOutputBytes,
        maxFiles: deps.build.maxOutputFiles,
        owner: process.getuid?.() === 0 ? deps.build.uid : undefined,
      },
    );
    staged = copy.dir;
    if (copy.files === 0) throw new BuildRefused(`The output directory ${outputDir}/ is empty`);
    if (copy.skipped.length)
      out.line(
        `left out of the preview (not regular files of the build): ${copy.skipped.slice(0, 20).join(', ')}`,
      );
    await deps.previews.publish(tenant.id, project.project_code, log.id, copy.dir);
    staged = null;
    outcome.preview = true;
    out.line(`preview: ${copy.files} file(s), ${copy.bytes} bytes from ${outputDir}/ are live`);
    outcome.ok = true;
  } catch (err) {
    const message =
      err instanceof BuildRefused || err instanceof OutputTooLargeError ? err.message : String(err);
    out.line(`error: ${message}`);
    out.line('the previous preview (if any) stays live');
    outcome.message = message;
  } finally {
    clearInterval(ticker);
    await flushing;
    if (staged) await deps.previews.discard(staged).catch(() => {});
    if (work) await rm(work, { recursive: true, force: true }).catch(() => {});
  }
  const ok = outcome.ok;
  await db.transaction().execute(async (trx) => {
    const locked = await repo.lockProject(trx, payload.projectId);
    const status = locked ? nextStatus(locked.status, ok ? 'rebuild_succeeded' : 'rebuild_failed') : null;
    const version = locked && ok ? bumpVersion(locked.version, 'patch') : locked?.version;
    const message = ok
      ? `Deployed ${version} to ${payload.targetTenant}`
      : `Rebuild of ${payload.targetTenant} failed: ${outcome.message}`;
    if (outcome.preview) await deployments.clearPreview(trx, payload.projectId);
    await deployments.finishDeployment(trx, log.id, {
      status: ok ? 'succeeded' : 'failed',
      message: message.slice(0, 2000),
      log: out.text(),
      exit_code: outcome.run?.exitCode ?? null,
      signal: outcome.run?.signal ?? null,
      timed_out: outcome.run?.timedOut ?? false,
      duration_ms: outcome.run?.durationMs ?? null,
      output_dir: outcome.outputDir,
      preview: outcome.preview,
      ...(version ? { version } : {}),
    });
    if (!locked) return;
    if (status)
      await repo.updateProject(trx, locked.id, {
        status,
        ...(ok ? { version: version as string, deployed_at: new Date() } : {}),
      });
    await repo.addChangelog(trx, {
      project_id: locked.id,
      action: ok ? 'deployed' : 'rebuild_failed',
      description: message.slice(0, 2000),
      changed_by: 'rebuild-worker',
      metadata: {
        deployment_log_id: log.id,
        from_status: locked.status,
        to_status: status ?? locked.status,
        exit_code: outcome.run?.exitCode ?? null,
      },
    });
  });
  return { status: ok ? 'succeeded' : 'failed' };
}
