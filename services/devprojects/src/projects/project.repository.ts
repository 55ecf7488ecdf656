import { type Kysely, sql, type Transaction, type ApltDatabase } from '@aplt/db';

export const projectTypes = ['feature', 'bugfix', 'enhancement'] as const;
export const projectStatuses = ['draft', 'in_progress', 'testing', 'deployed'] as const;
export const priorities = ['low', 'normal', 'high', 'critical'] as const;
export const changeTypes = ['added', 'modified', 'deleted', 'renamed'] as const;

export type ProjectStatus = (typeof projectStatuses)[number];

export interface ProjectRow {
  id: number;
  project_code: string;
  name: string;
  description: string | null;
  project_type: (typeof projectTypes)[number];
  status: ProjectStatus;
  priority: (typeof priorities)[number];
  version: string;
  branch_name: string;
  assigned_to: string | null;
  target_date: string | null;
  ticket_number: string | null;
  ticket_id: number | null;
  tenant: string | null;
  created_by: string | null;
  deployed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

type Db = Kysely<ApltDatabase> | Transaction<ApltDatabase>;

const projectColumns = [
  'id',
  'project_code',
  'name',
  'description',
  'project_type',
  'status',
  'priority',
  'version',
  'branch_name',
  'assigned_to',
  'target_date',
  'ticket_number',
  'ticket_id',
  'tenant',
  'created_by',
  'deployed_at',
  'created_at',
  'updated_at',
] as const;

export interface NewProject {
  name: string;
  description: string | null;
  project_type: string;
  priority?: string;
  assigned_to?: string | null;
  target_date?: string | null;
  ticket_number?: string | null;
  ticket_id?: number | null;
  tenant: string;
  created_by: string | null;
}

export async function insertProject(db: Db, values: NewProject): Promise<ProjectRow> {
  return (await db
    .insertInto('aplt_dev_projects')
    .values(values)
    .returning(projectColumns as never)
    .executeTakeFirstOrThrow()) as ProjectRow;
}

export async function findProject(
  db: Db,
  by: { id?: number; code?: string },
): Promise<ProjectRow | undefined> {
  let q = db.selectFrom('aplt_dev_projects').select(projectColumns as never);
  if (by.id !== undefined) q = q.where('id', '=', by.id);
  if (by.code !== undefined) q = q.where('project_code', '=', by.code);
  return (await q.executeTakeFirst()) as ProjectRow | undefined;
}

/** Locks the row for the rest of the transaction: status and version moves are read-modify-write. */
export async function lockProject(
  trx: Transaction<ApltDatabase>,
  id: number,
): Promise<ProjectRow | undefined> {
  return (await trx
    .selectFrom('aplt_dev_projects')
    .select(projectColumns as never)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()) as ProjectRow | undefined;
}

export async function findProjectByTicket(
  db: Db,
  ticketId: number,
  ticketNumber: string,
): Promise<ProjectRow | undefined> {
  return (await db
    .selectFrom('aplt_dev_projects')
    .select(projectColumns as never)
    .where('ticket_id', '=', ticketId)
    .where('ticket_number', '=', ticketNumber)
    .orderBy('id')
    .executeTakeFirst()) as ProjectRow | undefined;
}

export async function listProjects(
  db: Db,
  filter: { status?: string; limit: number; offset: number },
): Promise<{ rows: ProjectRow[]; count: number }> {
  let q = db.selectFrom('aplt_dev_projects');
  if (filter.status) q = q.where('status', '=', filter.status);
  const [rows, total] = await Promise.all([
    q
      .select(projectColumns as never)
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as ProjectRow[], count: Number((total as { n: string }).n) };
}

export async function updateProject(
  db: Db,
  id: number,
  patch: Partial<Pick<ProjectRow, 'status' | 'version'>> & { deployed_at?: Date },
): Promise<void> {
  await db
    .updateTable('aplt_dev_projects')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function upsertFiles(
  db: Db,
  projectId: number,
  files: Array<{ file_path: string; change_type: string }>,
): Promise<void> {
  if (files.length === 0) return;
  await db
    .insertInto('aplt_dev_project_files')
    .values(files.map((f) => ({ project_id: projectId, file_path: f.file_path, change_type: f.change_type })))
    .onConflict((oc) =>
      oc.columns(['project_id', 'file_path']).doUpdateSet({
        change_type: sql`excluded.change_type`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

export async function listFiles(db: Db, projectId: number) {
  return db
    .selectFrom('aplt_dev_project_files')
    .select(['file_path', 'change_type', 'updated_at'])
    .where('project_id', '=', projectId)
    .orderBy('file_path')
    .execute() as Promise<Array<{ file_path: string; change_type: string; updated_at: Date }>>;
}

export async function addChangelog(
  db: Db,
  entry: {
    project_id: number;
    action: string;
    description: string | null;
    changed_by: string | null;
    metadata?: Record<string, unknown>;
  },
) {
  return db
    .insertInto('aplt_dev_project_changelog')
    .values({ ...entry, metadata: JSON.stringify(entry.metadata ?? {}) })
    .returning(['id', 'project_id', 'action', 'description', 'changed_by', 'created_at'])
    .executeTakeFirstOrThrow() as Promise<{
    id: number;
    project_id: number;
    action: string;
    description: string | null;
    changed_by: string | null;
    created_at: Date;
  }>;
}

export async function listChangelog(db: Db, projectId: number, limit = 50) {
  return db
    .selectFrom('aplt_dev_project_changelog')
    .select(['id', 'action', 'description', 'changed_by', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute() as Promise<
    Array<{
      id: number;
      action: string;
      description: string | null;
      changed_by: string | null;
      created_at: Date;
    }>
  >;
}
