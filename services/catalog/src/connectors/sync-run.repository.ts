import { type ApltDatabase, type Kysely, type Selectable, sql } from '@aplt/db';
import type { ProgressSnapshot } from './run-progress';

type Db = Kysely<ApltDatabase>;

export interface SyncRun {
  id: number;
  connector: string;
  supplier_code: string | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  job_id: string | null;
  source: string | null;
  triggered_by: string | null;
  rows_read: number;
  rows_inserted: number;
  rows_updated: number;
  rows_rejected: number;
  progress: string | null;
  error: string | null;
  metadata: Record<string, unknown>;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** Run state in aplt_connector_sync (connectors, and the commerce_sync / tenant_update runs). */
export async function createRun(
  db: Db,
  values: {
    connector: string;
    supplierCode?: string | null;
    source?: string | null;
    triggeredBy?: string | null;
    metadata?: object;
  },
): Promise<SyncRun> {
  return (await db
    .insertInto('aplt_connector_sync')
    .values({
      connector: values.connector,
      supplier_code: values.supplierCode ?? null,
      source: values.source ?? null,
      triggered_by: values.triggeredBy ?? null,
      metadata: JSON.stringify(values.metadata ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as SyncRun;
}

export async function setJobId(db: Db, id: number, jobId: string): Promise<void> {
  await db.updateTable('aplt_connector_sync').set({ job_id: jobId }).where('id', '=', id).execute();
}

/**
 * queued -> running; false when the run is not queued (already taken, or cancelled). A run that
 * is still `running` is taken again too: its worker died (SIGKILL) and BullMQ's stalled-job check
 * handed the job on. Its transaction died with it, but the rejects it wrote outside the
 * transaction did not: they go in the same statement, so the new attempt reports its own only.
 */
export async function markRunning(db: Db, id: number): Promise<boolean> {
  const res = await sql<{ taken: number }>`
    WITH taken AS (
      UPDATE aplt_connector_sync SET status = 'running', started_at = now(), error = NULL, progress = 0
      WHERE id = ${id} AND status IN ('queued', 'running')
      RETURNING id
    ), cleared AS (
      DELETE FROM aplt_connector_rejects WHERE sync_id IN (SELECT id FROM taken)
    )
    SELECT count(*)::int AS taken FROM taken`.execute(db);
  return (res.rows[0]?.taken ?? 0) > 0;
}

export async function updateProgress(
  db: Db,
  id: number,
  p: {
    rowsRead?: number;
    inserted?: number;
    updated?: number;
    rejected?: number;
    progress?: number;
    metadata?: object;
  },
): Promise<void> {
  // Kysely leaves undefined fields out of the SET, so only the figures given are written. They
  // are plain properties (not spreads) so that a renamed column fails to compile here.
  await db
    .updateTable('aplt_connector_sync')
    .set({
      rows_read: p.rowsRead,
      rows_inserted: p.inserted,
      rows_updated: p.updated,
      rows_rejected: p.rejected,
      progress: p.progress?.toFixed(2),
      metadata: p.metadata === undefined ? undefined : sql`metadata || ${JSON.stringify(p.metadata)}::jsonb`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A working run's progress (see run-progress.ts): the percentage only ever grows, and a run that
 * is no longer running is left alone, so a late write never undoes the final state.
 */
export async function writeProgress(db: Db, id: number, p: ProgressSnapshot): Promise<void> {
  const progress = { phase: p.phase, done: p.done, total: p.total, unit: p.unit };
  await db
    .updateTable('aplt_connector_sync')
    .set({
      progress: sql`greatest(coalesce(progress, 0), ${p.percent.toFixed(2)}::numeric)`,
      rows_read: p.rowsRead, // left out when undefined
      metadata: sql`metadata || jsonb_build_object('progress', ${JSON.stringify(progress)}::jsonb)`,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

export async function finishRun(
  db: Db,
  id: number,
  outcome: { status: 'succeeded' | 'failed' | 'queued'; error?: string | null },
): Promise<void> {
  await db
    .updateTable('aplt_connector_sync')
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      finished_at: outcome.status === 'queued' ? undefined : sql`now()`,
      progress: outcome.status === 'succeeded' ? '100' : undefined,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The last attempt of a run's job failed before the run could record why (an unknown connector,
 * its database unreachable throughout): the run fails, so its connector can be started again. A
 * finished run is left as it is.
 */
export async function failUnfinishedRun(db: Db, id: number, error: string): Promise<void> {
  await db
    .updateTable('aplt_connector_sync')
    .set({ status: 'failed', error, finished_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

export async function getRun(db: Db, id: number): Promise<SyncRun | undefined> {
  return (await db.selectFrom('aplt_connector_sync').selectAll().where('id', '=', id).executeTakeFirst()) as
    SyncRun | undefined;
}

/** The newest run of each named connector. */
export async function latestRuns(db: Db, names: string[]): Promise<Map<string, SyncRun>> {
  const rows = (await db
    .selectFrom('aplt_connector_sync')
    .selectAll()
    .distinctOn('connector')
    .where('connector', 'in', names)
    .orderBy('connector')
    .orderBy('id', 'desc')
    .execute()) as SyncRun[];
  return new Map(rows.map((r) => [r.connector, r]));
}

/** Runs of the named connectors, newest first, a page at a time, with the count of all of them. */
export async function listRuns(
  db: Db,
  f: { connectors: string[]; status?: SyncRun['status'] | undefined; limit: number; offset: number },
): Promise<{ rows: SyncRun[]; count: number }> {
  let q = db.selectFrom('aplt_connector_sync').where('connector', 'in', f.connectors);
  if (f.status) q = q.where('status', '=', f.status);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as SyncRun[], count: Number(total.n) };
}

export async function addRejects(
  db: Db,
  syncId: number,
  rejects: Array<{ rowNumber: number; key?: string | undefined; reason: string; raw: unknown }>,
): Promise<void> {
  if (rejects.length === 0) return;
  await db
    .insertInto('aplt_connector_rejects')
    .values(
      rejects.map((r) => ({
        sync_id: syncId,
        row_number: r.rowNumber,
        key: r.key ?? null,
        reason: r.reason.slice(0, 1000),
        raw: JSON.stringify(r.raw ?? null),
      })),
    )
    .execute();
}

export async function listRejects(db: Db, syncId: number, limit = 100) {
  return db
    .selectFrom('aplt_connector_rejects')
    .select(['row_number', 'key', 'reason', 'raw'])
    .where('sync_id', '=', syncId)
    .orderBy('row_number')
    .limit(limit)
    .execute();
}

type Json = Selectable<ApltDatabase['aplt_suppliers']>['settings'];

const jsonObject = (v: Json | undefined): { [key: string]: Json | undefined } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};

/** What a connector reads of its supplier: the feed format, and of the settings (jsonb) its feeds and margin. */
export async function supplierFeed(
  db: Db,
  code: string,
): Promise<
  | {
      feed_format: string | null;
      /** settings.feeds: the location of each kind of feed (a value that is not a string is none). */
      feeds: Partial<Record<string, string>>;
      /** settings.margin_percent as stored (a decimal string or a number). */
      margin_percent: Json | undefined;
    }
  | undefined
> {
  const row = await db
    .selectFrom('aplt_suppliers')
    .select(['feed_format', 'settings'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!row) return undefined;
  const settings = jsonObject(row.settings);
  const feeds = Object.entries(jsonObject(settings.feeds)).filter(
    (e): e is [string, string] => typeof e[1] === 'string',
  );
  return {
    feed_format: row.feed_format,
    feeds: Object.fromEntries(feeds),
    margin_percent: settings.margin_percent,
  };
}

/** The queued or running row of a connector (the partial unique index allows one). */
export const activeRun = (db: Db, connector: string) =>
  db
    .selectFrom('aplt_connector_sync')
    .select(['id', 'job_id'])
    .where('connector', '=', connector)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();

/** Each supplier's feed format, by supplier code. */
export const supplierFormats = async (db: Db): Promise<Map<string, string | null>> =>
  new Map(
    (await db.selectFrom('aplt_suppliers').select(['code', 'feed_format']).execute()).map(
      (s) => [s.code, s.feed_format] as const,
    ),
  );

export const supplierExists = async (db: Db, code: string): Promise<boolean> =>
  (await db.selectFrom('aplt_suppliers').select('code').where('code', '=', code).executeTakeFirst()) !==
  undefined;

/**
 * Session settings of an import's transaction. Batch statements over fresh rows get large cost
 * estimates, and JIT compiling each of them costs far more than running it (measured 10x on stock
 * imports); the set-based steps sort and hash whole feeds, in memory rather than temp files; and
 * the commit need not wait for its WAL to reach the disk, since the run is only reported succeeded
 * by the (synchronous) status update after it, which flushes that WAL too.
 */
export async function tuneImportTransaction(trx: Db): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(trx);
  await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
  await sql`SET LOCAL synchronous_commit = off`.execute(trx);
}

/**
 * Fresh statistics for the lookups the next run and the store make. A column list: a full ANALYZE
 * would sort 30,000 sampled descriptions; this leaves the change counter alone, so autovacuum still
 * analyzes the whole tables soon after.
 */
export async function analyzeImportLookups(db: Db): Promise<void> {
  await sql`ANALYZE aplt_products (id, sku, supplier_code, supplier_sku),
    aplt_product_variants (id, product_id, sku, supplier_sku), aplt_skus (sku)`.execute(db);
}
