import type { Kysely, TenantRecord, ApltDatabase } from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { BranchMissingError, BranchMovedError, type GitRepository } from '../git/git-repository';
import * as repo from './project.repository';
import { bumpVersion, nextStatus } from './version';

export interface ProjectContext {
  db: Kysely<ApltDatabase>;
  git: GitRepository;
  tenant: TenantRecord;
}

export interface CreateInput {
  name: string;
  description?: string | null;
  project_type: string;
  priority?: string;
  assigned_to?: string | null;
  target_date?: string | null;
  created_by: string | null;
}

/** Creates the row, then its branch dev-project/<code> off main; a failed branch undoes the row. */
export async function createProject(
  ctx: ProjectContext,
  input: CreateInput & { ticket_id?: number; ticket_number?: string },
): Promise<repo.ProjectRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const project = await repo.insertProject(trx, {
      name: input.name,
      description: input.description ?? null,
      project_type: input.project_type,
      priority: input.priority ?? 'normal',
      assigned_to: input.assigned_to ?? null,
      target_date: input.target_date ?? null,
      ticket_id: input.ticket_id ?? null,
      ticket_number: input.ticket_number ?? null,
      tenant: ctx.tenant.id,
      created_by: input.created_by,
    });
    const branch = await ctx.git.createBranch(project.branch_name);
    await repo.addChangelog(trx, {
      project_id: project.id,
      action: 'created',
      description: input.ticket_number
        ? `Created from support ticket ${input.ticket_number}`
        : `Created ${project.project_type} project`,
      changed_by: input.created_by,
      metadata: { branch: project.branch_name, base: branch.head, ticket_id: input.ticket_id ?? null },
    });
    return project;
  });
}

/**
 * The portal's path: one project per ticket. A retry after a lost answer finds the project it
 * already made instead of creating a second one.
 */
export async function createFromTicket(
  ctx: ProjectContext,
  input: CreateInput & { ticket_id: number; ticket_number: string },
): Promise<{ project: repo.ProjectRow; created: boolean }> {
  const existing = await repo.findProjectByTicket(ctx.db, input.ticket_id, input.ticket_number);
  if (existing) return { project: existing, created: false };
  return { project: await createProject(ctx, input), created: true };
}

export async function getProject(ctx: ProjectContext, by: { id?: number; code?: string }) {
  const project = await repo.findProject(ctx.db, by);
  if (!project) throw notFound('Dev project not found', by);
  return project;
}

export async function recordFiles(
  ctx: ProjectContext,
  projectId: number,
  files: Array<{ file_path: string; change_type: string }>,
  changedBy: string | null,
) {
  const project = await getProject(ctx, { id: projectId });
  await ctx.db.transaction().execute(async (trx) => {
    await repo.upsertFiles(trx, project.id, files);
    await repo.addChangelog(trx, {
      project_id: project.id,
      action: 'files_recorded',
      description: `${files.length} file(s) recorded`,
      changed_by: changedBy,
      metadata: { files },
    });
  });
  return repo.listFiles(ctx.db, project.id);
}

export async function addChangelogEntry(
  ctx: ProjectContext,
  entry: { project_id: number; action: string; description: string | null; changed_by: string | null },
) {
  await getProject(ctx, { id: entry.project_id });
  return repo.addChangelog(ctx.db, entry);
}

export interface CommitFile {
  file_path: string;
  content?: string;
  content_base64?: string;
  delete?: boolean;
}

/**
 * Commits the given file contents on the project branch as the bot. The recorded file list and
 * the version follow the commit; status moves to in_progress (see version.ts).
 */
export async function commit(
  ctx: ProjectContext,
  input: { project_id: number; message: string; files: CommitFile[]; changed_by: string | null },
) {
  const project = await getProject(ctx, { id: input.project_id });
  const writes = input.files.map((f) => ({
    path: f.file_path,
    content: f.delete
      ? null
      : f.content_base64 !== undefined
        ? Buffer.from(f.content_base64, 'base64')
        : Buffer.from(f.content ?? '', 'utf8'),
  }));
  let sha: string | null;
  try {
    sha = await ctx.git.commit(
      project.branch_name,
      `${input.message}\n\nDev project: ${project.project_code}`,
      writes,
    );
  } catch (err) {
    if (err instanceof BranchMovedError) throw conflict(err.message, { branch: project.branch_name });
    throw missingBranchAsConflict(err);
  }
  if (!sha) throw unprocessable('Nothing to commit: the files are unchanged on the branch');
  const diff = await ctx.git.diff(project.branch_name);
  const changed = new Map(diff.files.map((f) => [f.path, f.status]));
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const locked = (await repo.lockProject(trx, project.id)) as repo.ProjectRow;
    const version = bumpVersion(locked.version, 'build');
    const status = nextStatus(locked.status, 'commit') ?? locked.status;
    await repo.updateProject(trx, project.id, { version, status });
    await repo.upsertFiles(
      trx,
      project.id,
      writes.map((w) => ({
        file_path: w.path,
        change_type: changed.get(w.path) ?? (w.content === null ? 'deleted' : 'modified'),
      })),
    );
    await repo.addChangelog(trx, {
      project_id: project.id,
      action: 'committed',
      description: input.message,
      changed_by: input.changed_by,
      metadata: {
        sha,
        version,
        files: writes.map((w) => w.path),
        from_status: locked.status,
        to_status: status,
      },
    });
    return { version, status };
  });
  return { sha, branch: project.branch_name, ...updated };
}

/** A project whose branch vanished from the repository (deleted by hand, repository replaced). */
export function missingBranchAsConflict(err: unknown): unknown {
  return err instanceof BranchMissingError
    ? conflict(err.message, { branch: err.branch, reason: 'branch_missing' })
    : err;
}

export async function diff(ctx: ProjectContext, projectId: number) {
  const project = await getProject(ctx, { id: projectId });
  const result = await ctx.git.diff(project.branch_name).catch((err: unknown) => {
    throw missingBranchAsConflict(err);
  });
  return { project_id: project.id, branch: project.branch_name, ...result };
}

/** The commits of the project's branch that main does not have, newest first. */
export async function commits(ctx: ProjectContext, projectId: number, limit: number) {
  const project = await getProject(ctx, { id: projectId });
  const list = await ctx.git.log(project.branch_name, limit).catch((err: unknown) => {
    throw missingBranchAsConflict(err);
  });
  return { project_id: project.id, branch: project.branch_name, commits: list };
}

export async function browse(ctx: ProjectContext, projectId: number, path: string) {
  const project = await getProject(ctx, { id: projectId });
  const found = await ctx.git.browse(project.branch_name, path).catch((err: unknown) => {
    throw missingBranchAsConflict(err);
  });
  if (!found) throw notFound(`No file or directory ${path} on ${project.branch_name}`, { path });
  return { project_id: project.id, branch: project.branch_name, path, ...found };
}
