import { type Kysely, sql, type Transaction, type ApltDatabase } from '@aplt/db';

type Db = Kysely<ApltDatabase> | Transaction<ApltDatabase>;

export interface DeploymentRow {
  id: number;
  dev_project_id: number | null;
  environment: string | null;
  version: string | null;
  commit_sha: string | null;
  status: 'started' | 'succeeded' | 'failed' | 'rolled_back';
  message: string | null;
  log: string | null;
  started_by: string | null;
  started_at: Date;
  finished_at: Date | null;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number | null;
  output_dir: string | null;
  preview: boolean;
}

const columns = [
  'id',
  'dev_project_id',
  'environment',
  'version',
  'commit_sha',
  'status',
  'message',
  'log',
  'started_by',
  'started_at',
  'finished_at',
  'exit_code',
  'signal',
  'timed_out',
  'duration_ms',
  'output_dir',
  'preview',
] as const;

/** aplt_tenants is this database's own copy of the tenant list; the FK is filled when it knows the code. */
export async function insertDeployment(
  db: Db,
  values: {
    dev_project_id: number;
    environment: string;
    version: string;
    commit_sha: string;
    started_by: string | null;
  },
): Promise<DeploymentRow> {
  return (await db
    .insertInto('aplt_deployment_logs')
    .values({
      ...values,
      status: 'started',
      message: `Rebuild of ${values.environment} requested`,
      tenant_id: sql`(select id from aplt_tenants where code = ${values.environment})`,
    })
    .returning(columns as never)
    .executeTakeFirstOrThrow()) as DeploymentRow;
}

export async function findDeployment(db: Db, id: number): Promise<DeploymentRow | undefined> {
  return (await db
    .selectFrom('aplt_deployment_logs')
    .select(columns as never)
    .where('id', '=', id)
    .executeTakeFirst()) as DeploymentRow | undefined;
}

export async function finishDeployment(
  db: Db,
  id: number,
  values: {
    status: 'succeeded' | 'failed';
    message: string;
    log: string;
    version?: string;
    exit_code?: number | null;
    signal?: string | null;
    timed_out?: boolean;
    duration_ms?: number | null;
    output_dir?: string | null;
    preview?: boolean;
  },
): Promise<void> {
  await db
    .updateTable('aplt_deployment_logs')
    .set({ ...values, finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'started')
    .execute();
}

export async function latestDeployments(db: Db, projectId: number, limit = 5): Promise<DeploymentRow[]> {
  return (await db
    .selectFrom('aplt_deployment_logs')
    .select(columns as never)
    .where('dev_project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()) as DeploymentRow[];
}

/** The log so far of a running build (a finished one is never rewritten). */
export async function updateLog(db: Db, id: number, log: string): Promise<void> {
  await db
    .updateTable('aplt_deployment_logs')
    .set({ log, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'started')
    .execute();
}

/** Before a new preview goes live: no older deployment of the project is the live one any more. */
export async function clearPreview(db: Db, projectId: number): Promise<void> {
  await db
    .updateTable('aplt_deployment_logs')
    .set({ preview: false })
    .where('dev_project_id', '=', projectId)
    .where('preview', '=', true)
    .execute();
}

/** A project's deployments, newest first, without their logs (`log_bytes` says how long each is). */
export async function listDeployments(
  db: Db,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: Array<Omit<DeploymentRow, 'log'> & { log_bytes: number }>; count: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('aplt_deployment_logs')
      .select(columns.filter((c) => c !== 'log') as never)
      .select(sql<number>`coalesce(octet_length(log), 0)::int`.as('log_bytes'))
      .where('dev_project_id', '=', projectId)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('aplt_deployment_logs')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('dev_project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows as unknown as Array<Omit<DeploymentRow, 'log'> & { log_bytes: number }>,
    count: Number((total as { n: number }).n),
  };
}
