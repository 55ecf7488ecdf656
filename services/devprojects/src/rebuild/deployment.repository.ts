import { type Kysely, sql, type Transaction } from '@aplt/db';

type Db = Kysely<any> | Transaction<any>;

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
  values: { status: 'succeeded' | 'failed'; message: string; log: string; version?: string },
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
